// The resident memory of a whole service: a process and every process it started, read from /proc
// (Linux), so that a helper process the service runs cannot hide outside the figure.
import { readdir, readFile } from 'node:fs/promises';

async function readOr(path: string, fallback: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    // The process exited between listing and reading it: it holds no memory any more.
    return fallback;
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  let threads: string[];
  try {
    threads = await readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const lists = await Promise.all(threads.map((tid) => readOr(`/proc/${pid}/task/${tid}/children`, '')));
  return lists.flatMap((list) => list.trim().split(/\s+/).filter(Boolean).map(Number));
}

interface ProcessRss {
  total: number;
  /** Pages of mapped files: the executable's code (about 55 MB of Node 24's), libraries, native modules. */
  file: number;
  /** Anonymous pages: V8's heap, the allocator's arenas, stacks. */
  anon: number;
}

async function rssOf(pid: number): Promise<ProcessRss> {
  const status = await readOr(`/proc/${pid}/status`, '');
  const bytes = (field: string) => {
    const kb = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1];
    return kb === undefined ? 0 : Number(kb) * 1024;
  };
  return { total: bytes('VmRSS'), file: bytes('RssFile'), anon: bytes('RssAnon') };
}

export interface TreeRss {
  /** Sum of the RSS of the process and all its descendants. */
  bytes: number;
  /** Of `bytes`, the pages of mapped files (executables, libraries) and the anonymous ones. */
  fileBytes: number;
  anonBytes: number;
  processes: number;
}

export async function processTreeRss(rootPid: number): Promise<TreeRss> {
  const pids: number[] = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    pids.push(pid);
    pending.push(...(await childrenOf(pid)));
  }
  const sizes = await Promise.all(pids.map(rssOf));
  const sum = (part: keyof ProcessRss) => sizes.reduce((total, size) => total + size[part], 0);
  return {
    bytes: sum('total'),
    fileBytes: sum('file'),
    anonBytes: sum('anon'),
    processes: sizes.filter((size) => size.total > 0).length,
  };
}
