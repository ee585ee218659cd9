/**
 * A real redis-server for tests, on a free loopback port (Debian's redis-server 7.0; `.ci/run`
 * installs it). Persistence off unless asked: the AOF test restarts one with `appendonly yes`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REDIS_SERVER = process.env.GLEANER_REDIS_SERVER || '/usr/bin/redis-server';

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  proc: ChildProcess;
  /** Stop the server (SIGKILL: a crash; SIGTERM: a clean shutdown). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Start it again on the same port and directory (what survives depends on `aof`). */
  restart(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function launch(port: number, dir: string, aof: boolean): Promise<ChildProcess> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} not found: install Debian's redis-server (apt-get install -y redis-server) or set GLEANER_REDIS_SERVER`);
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no', '--loglevel', 'warning'];
  args.push('--appendonly', aof ? 'yes' : 'no');
  if (aof) args.push('--appendfsync', 'always');
  const proc = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited ${proc.exitCode}: ${err}`);
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, '127.0.0.1');
      sock.once('connect', () => {
        sock.write('PING\r\n');
        sock.once('data', (d) => {
          sock.destroy();
          resolve(String(d).startsWith('+PONG'));
        });
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return proc;
    if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startRedis(opts: { aof?: boolean } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'gleaner-redis-'));
  const aof = !!opts.aof;
  const r: TestRedis = {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    proc: await launch(port, dir, aof),
    async stop(signal = 'SIGTERM') {
      const p = r.proc;
      if (p.exitCode !== null || p.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once('exit', () => resolve());
        p.kill(signal);
      });
    },
    async restart() {
      await r.stop('SIGKILL');
      r.proc = await launch(port, dir, aof);
    },
  };
  return r;
}

export async function stopAndClean(r: TestRedis): Promise<void> {
  await r.stop('SIGKILL');
  rmSync(r.dir, { recursive: true, force: true });
}
