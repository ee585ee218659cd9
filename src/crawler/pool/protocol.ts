/**
 * What the crawl thread and the pool's workers say to each other. Tasks and results go through
 * piscina; logs and the chain's middleware names go up the worker's parent port (piscina emits
 * them as `message` on the pool); the site state (stages, the template) and the close handshake
 * use a MessagePort each worker opens to the crawl thread at start (one hop, in order).
 */
import type { MessagePort } from 'node:worker_threads';
import type { MiddlewareSetting } from '../../core/middleware.js';
import type { LinkPolicy } from '../links.js';
import type { PageTask } from './page-task.js';
import type { TemplateAnswer, TemplateRequest } from '../../chain/site-template.js';
import type { PageDone, PageLeft, StageAnswer, StageRequest } from './site-state.js';

/** Everything a worker needs to build the same chain as the crawl would (workerData). */
export interface WorkerInit {
  spider: string;
  middleware?: Record<string, MiddlewareSetting | undefined>;
  /** A spider file whose `extraMiddleware` the worker imports (functions cannot be sent). */
  spiderModule?: string;
  timezone?: string;
  stateDir?: string;
  links: LinkPolicy;
  /** The crawl logs debug lines (`--log-level debug`): the chain writes its per-middleware
   * decisions only then (Logger.debugEnabled), and the worker sends debug lines up only then. */
  debug?: boolean;
  /** Budget slots (see budget.ts) and the epoch their times count from. */
  budget: SharedArrayBuffer;
  epoch: number;
}

/** A page handed to a worker: the task plus its budget slot and its place in the order pages
 * reached the pool (the order the site template sees them in). */
export interface PoolTask extends PageTask {
  slot: number;
  seq: number;
}

/** Worker → crawl thread, on the parent port. */
export type WorkerMessage =
  | { gleaner: 'log'; level: 'debug' | 'info' | 'warning' | 'error'; msg: string; data?: Record<string, unknown> }
  | { gleaner: 'chain'; names: string[]; warnings: string[] }
  | { gleaner: 'port'; port: MessagePort };

/** On a worker's own port, both ways. */
export type PortMessage =
  | ({ gleaner: 'template' } & TemplateRequest)
  | ({ gleaner: 'answer' } & TemplateAnswer)
  // (the page-type stage carries the page's template question, its answer the template's answer)
  | ({ gleaner: 'stage'; template?: TemplateRequest } & StageRequest)
  | ({ gleaner: 'enter'; template?: TemplateAnswer } & StageAnswer)
  | ({ gleaner: 'left' } & PageLeft)
  | ({ gleaner: 'done' } & PageDone)
  | { gleaner: 'close' }
  | { gleaner: 'closed' };
