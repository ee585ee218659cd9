/**
 * Deterministic text for the demo site: a seeded PRNG and phrase tables, so every run serves the
 * same pages and tests can rely on them. Written for this project (no copied pages).
 */

/** mulberry32: tiny, fast, good enough for page text. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

export function int(r: () => number, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

const ZH_SUBJECTS = ['市交通委员会', '区教育局', '本市气象台', '省农业农村厅', '市场监管部门', '城市规划研究院', '社区服务中心', '市文化和旅游局', '高新区管委会', '市生态环境局', '一家本地科技企业', '市图书馆'];
const ZH_VERBS = ['近日发布', '正式启动', '今天宣布', '召开会议部署', '联合多部门推出', '公布了', '完成了', '开始试点'];
const ZH_OBJECTS = ['新一轮公交线网优化方案', '中小学课后服务工作安排', '夏季防汛应急预案', '春耕备耕技术指导意见', '食品安全专项检查结果', '老旧小区改造计划', '便民服务网点建设方案', '文化惠民演出季活动', '人工智能产业扶持政策', '空气质量改善行动计划', '公共阅读空间升级工程'];
const ZH_DETAILS = [
  '据介绍，此次调整涉及全市十二个区县，预计惠及市民超过三十万人',
  '相关负责人表示，将广泛听取群众意见，确保各项措施落到实处',
  '记者在现场看到，不少市民前来咨询，工作人员耐心解答各类问题',
  '按照计划，第一阶段工作将于六月底前完成，第二阶段随后展开',
  '专家指出，这一做法在兼顾效率的同时，也充分考虑了居民的实际需求',
  '目前，各项准备工作已基本就绪，相关设施正在进行最后的调试',
  '数据显示，今年前四个月该项工作整体进展顺利，多项指标好于预期',
  '下一步，有关部门将加强监督检查，及时通报工作进展情况',
  '不少受访市民表示，希望相关政策能够长期坚持下去，让更多人受益',
  '与此同时，配套的线上服务平台也已上线，市民可通过手机办理相关业务',
  '该负责人还提醒，近期天气变化较大，市民出行时要注意安全',
  '据了解，类似的做法此前已在部分地区试行，取得了较好的效果',
];
const ZH_NAMES = ['王晓明', '李娜', '张伟', '刘洋', '陈静', '杨帆', '赵磊', '黄丽', '周杰', '吴敏'];
const ZH_SOURCES = ['本报讯', '新华社', '城市晚报', '本网综合', '市融媒体中心'];

export interface ZhArticle {
  id: number;
  title: string;
  author: string;
  editor: string;
  source: string;
  /** Displayed date, e.g. 2024年5月3日 10:20 */
  dateText: string;
  paragraphs: string[];
}

export function zhArticle(id: number): ZhArticle {
  const r = rng(1000 + id);
  const subject = pick(r, ZH_SUBJECTS);
  const title = `${subject}${pick(r, ZH_VERBS)}${pick(r, ZH_OBJECTS)}`;
  const paragraphs: string[] = [];
  const n = int(r, 4, 8);
  paragraphs.push(`${pick(r, ZH_SOURCES)}（记者 ${pick(r, ZH_NAMES)}）${title}。${pick(r, ZH_DETAILS)}。`);
  for (let i = 1; i < n; i++) {
    const k = int(r, 2, 3);
    const parts: string[] = [];
    for (let j = 0; j < k; j++) parts.push(pick(r, ZH_DETAILS));
    paragraphs.push(parts.join('，') + '。');
  }
  const day = 1 + (id % 28);
  const hour = int(r, 7, 22);
  const minute = int(r, 0, 59);
  return {
    id,
    title,
    author: pick(r, ZH_NAMES),
    editor: pick(r, ZH_NAMES),
    source: pick(r, ZH_SOURCES),
    dateText: `2024年5月${day}日 ${hour}:${String(minute).padStart(2, '0')}`,
    paragraphs,
  };
}

const EN_TOPICS = ['sourdough', 'night trains', 'urban gardens', 'mechanical keyboards', 'river swimming', 'slow travel', 'home espresso', 'film cameras', 'trail running', 'tiny libraries'];
const EN_OPENERS = ['Notes on', 'What I learned about', 'A year of', 'Why I keep coming back to', 'Getting started with', 'The quiet joy of'];
const EN_SENTENCES = [
  'It started as a weekend experiment and slowly turned into a habit I look forward to every week.',
  'The first attempts were clumsy, but each one taught me something the books never mentioned.',
  'Most of the advice online is contradictory, so I kept a notebook and tested one change at a time.',
  'What surprised me most was how much patience mattered compared to expensive equipment.',
  'A friend pointed out that the small details were where all the difference came from.',
  'By the third month I had a routine that fit around work without feeling like a chore.',
  'There were setbacks, of course, and a few mornings when nothing went according to plan.',
  'If you are curious, start small, keep notes, and resist the urge to buy everything at once.',
  'The community around it is generous, and people are happy to share what worked for them.',
  'Looking back, the slow progress was the part I enjoyed the most.',
];
const EN_AUTHORS = ['Maya Collins', 'Tom Becker', 'Priya Nair', 'Jonas Holm', 'Elena Ruiz'];

export interface EnPost {
  slug: string;
  title: string;
  author: string;
  /** ISO date with offset */
  iso: string;
  dateText: string;
  paragraphs: string[];
  tags: string[];
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export function enPost(i: number): EnPost {
  const r = rng(5000 + i);
  const topic = EN_TOPICS[i % EN_TOPICS.length]!;
  const title = `${pick(r, EN_OPENERS)} ${topic}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') + `-${i}`;
  const month = int(r, 0, 11);
  const day = int(r, 1, 28);
  const paragraphs: string[] = [];
  const n = int(r, 4, 7);
  for (let p = 0; p < n; p++) {
    const k = int(r, 2, 4);
    const s: string[] = [];
    for (let j = 0; j < k; j++) s.push(pick(r, EN_SENTENCES));
    paragraphs.push(s.join(' '));
  }
  return {
    slug,
    title: title[0]!.toUpperCase() + title.slice(1),
    author: pick(r, EN_AUTHORS),
    iso: `2023-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}T09:30:00+00:00`,
    dateText: `${MONTHS[month]} ${day}, 2023`,
    paragraphs,
    tags: [topic, pick(r, ['life', 'hobbies', 'notes', 'howto'])],
  };
}

const FORUM_TITLES = ['求助：老房子墙面返潮怎么处理？', '分享一下我的阳台种菜经验', '新手买相机，预算五千怎么选', '周末骑行路线推荐（附轨迹）', '孩子上小学前需要准备什么', '家里宽带总掉线，排查记录', '第一次自驾去西北，求攻略', '旧手机改造成家庭服务器'];
const FORUM_REPLIES = [
  '我家也遇到过类似的情况，后来请师傅重新做了防水，效果还不错。',
  '楼主说得很详细，收藏了，周末试试看。',
  '建议先别急着买，多去实体店上手体验一下再决定。',
  '同问，我也想知道具体怎么操作，有没有更详细的步骤？',
  '这个问题主要还是看预算，预算充足的话一步到位比较省心。',
  '感谢分享！按照你的方法弄了一下，确实好多了。',
  '补充一点：一定要注意安全，工具用完及时收好。',
  '我觉得楼上说得有道理，不过每家情况不一样，还是要具体分析。',
  '去年走过这条线，风景非常好，就是路上补给点比较少。',
  '顶一下，希望有经验的朋友多来说说。',
];
const FORUM_USERS = ['阿杰', '小鱼儿', '老张头', '山间明月', '路人甲', '骑行的猫', '木木', '晴天', '大熊', '一叶知秋', 'tony2008', '海风'];

export interface ForumFloor {
  floor: number;
  user: string;
  userId: number;
  dateText: string;
  content: string;
  signature?: string;
}

export interface ForumThread {
  id: number;
  title: string;
  pages: ForumFloor[][];
}

/** Floors per thread page (a common forum default is 10–20). */
export const FLOORS_PER_PAGE = 8;

export function forumThread(id: number): ForumThread {
  const r = rng(9000 + id);
  const title = FORUM_TITLES[id % FORUM_TITLES.length]!;
  const total = int(r, 5, FLOORS_PER_PAGE * 3);
  const floors: ForumFloor[] = [];
  let minute = int(r, 0, 300);
  for (let f = 1; f <= total; f++) {
    minute += int(r, 3, 240);
    const day = 10 + Math.floor(minute / 1440);
    const hm = minute % 1440;
    const user = f === 1 ? FORUM_USERS[id % FORUM_USERS.length]! : pick(r, FORUM_USERS);
    const content = f === 1 ? `${title.replace(/[？?]$/, '')}。${pick(r, FORUM_REPLIES)}${pick(r, FORUM_REPLIES)}大家有什么建议吗？` : pick(r, FORUM_REPLIES) + (r() < 0.4 ? pick(r, FORUM_REPLIES) : '');
    floors.push({
      floor: f,
      user,
      userId: 100 + FORUM_USERS.indexOf(user),
      dateText: `2024-04-${String(Math.min(day, 30)).padStart(2, '0')} ${String(Math.floor(hm / 60)).padStart(2, '0')}:${String(hm % 60).padStart(2, '0')}`,
      content,
      signature: r() < 0.5 ? pick(r, ['生活不止眼前的苟且', '认真生活，慢慢变好', '签名档：欢迎交流', '——来自手机客户端']) : undefined,
    });
  }
  const pages: ForumFloor[][] = [];
  for (let i = 0; i < floors.length; i += FLOORS_PER_PAGE) pages.push(floors.slice(i, i + FLOORS_PER_PAGE));
  return { id, title, pages };
}
