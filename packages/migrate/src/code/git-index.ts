import { readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * "Modified since the last commit" the way git decides it first, without git: a file whose size or
 * modification time differs from its entry in the repository's index (`.git/index`, versions 2 to 4).
 * Files git does not track are not reported. A file edited and restored within the same second as the
 * index was written can look unmodified (git then compares contents; this does not).
 */
interface Entry {
  mtimeSec: number;
  mtimeNsec: number;
  size: number;
}

async function gitDir(start: string): Promise<{ work: string; git: string } | undefined> {
  let dir = start;
  for (;;) {
    const dotgit = join(dir, '.git');
    try {
      const s = await stat(dotgit);
      if (s.isDirectory()) return { work: dir, git: dotgit };
      const m = /^gitdir:\s*(.+)\s*$/m.exec(await readFile(dotgit, 'utf8'));
      if (m) return { work: dir, git: resolve(dir, m[1]!) };
    } catch {
      // no .git here: go up
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export function parseIndex(buf: Buffer): Map<string, Entry> | undefined {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const out = new Map<string, Entry>();
  let off = 12;
  let prev = '';
  for (let i = 0; i < count; i++) {
    const start = off;
    const entry = {
      mtimeSec: buf.readUInt32BE(off + 8),
      mtimeNsec: buf.readUInt32BE(off + 12),
      size: buf.readUInt32BE(off + 36),
    };
    const flags = buf.readUInt16BE(off + 60);
    off += 62;
    if (version >= 3 && flags & 0x4000) off += 2;
    let path: string;
    if (version === 4) {
      let strip = 0;
      let byte: number;
      do {
        byte = buf[off++]!;
        strip = (strip << 7) | (byte & 0x7f);
        if (byte & 0x80) strip++;
      } while (byte & 0x80);
      const end = buf.indexOf(0, off);
      path = prev.slice(0, prev.length - strip) + buf.toString('utf8', off, end);
      off = end + 1;
    } else {
      const end = buf.indexOf(0, off);
      path = buf.toString('utf8', off, end);
      off = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    prev = path;
    out.set(path, entry);
  }
  return out;
}

/** Checks files against the git index of their repository (read once per repository). */
export function createGitStatus() {
  const repos = new Map<string, Promise<{ work: string; index?: Map<string, Entry> } | undefined>>();
  const repoOf = async (file: string) => {
    const found = await gitDir(dirname(file));
    if (!found) return undefined;
    let p = repos.get(found.git);
    if (!p) {
      p = readFile(join(found.git, 'index')).then(
        (b) => ({ work: found.work, index: parseIndex(b) }),
        () => ({ work: found.work }),
      );
      repos.set(found.git, p);
    }
    return p;
  };
  return {
    /** True when git would list the file as modified (size or time differs from the index). */
    async isModified(file: string): Promise<boolean> {
      const repo = await repoOf(file);
      const entry = repo?.index?.get(relative(repo.work, file).split(sep).join('/'));
      if (!entry) return false;
      const s = await stat(file, { bigint: true });
      const sec = Number(s.mtimeNs / 1_000_000_000n);
      const nsec = Number(s.mtimeNs % 1_000_000_000n);
      return (
        Number(s.size) !== entry.size ||
        sec !== entry.mtimeSec ||
        (entry.mtimeNsec !== 0 && nsec !== entry.mtimeNsec)
      );
    },
  };
}
