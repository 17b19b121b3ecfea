// The background of `pnpm test`: steps that start in the idle scheduling class while the timed files hold
// the machine (a SCHED_IDLE process runs only on a core nothing else wants; its children inherit the class),
// and run at normal priority once they are done. Without that promotion, a background step still running
// when the later lanes fill both cores would get no CPU at all, and a timeout of its own (a consumer
// project's `npm test`, 120 s) would fail it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** SCHED_IDLE, as /proc/<pid>/stat's `policy` field gives it. */
const SCHED_IDLE = 5;

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** The prefix that starts a command in the idle class (Linux), else at the lowest nice level, else nothing. */
function idlePrefix(): string[] {
  if (works('chrt', ['--idle', '0', 'true'])) return ['chrt', '--idle', '0'];
  return works('nice', ['-n', '19', 'true']) ? ['nice', '-n', '19'] : [];
}

/** Each live process's parent and scheduling policy, from /proc (empty where there is no /proc). */
function processes(): Map<number, { parent: number; policy: number }> {
  const table = new Map<number, { parent: number; policy: number }>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return table;
  }
  for (const pid of entries) {
    try {
      // The fields after the command name, which is in parentheses and may hold spaces: state is field 3.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(pid), { parent: Number(fields[1]), policy: Number(fields[38]) });
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

/** `roots` and every process descending from them. */
function descendants(roots: Iterable<number>, table: ReturnType<typeof processes>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of table) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(pid);
    else children.set(parent, [pid]);
  }
  const found: number[] = [];
  const queue = [...roots].filter((pid) => table.has(pid));
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

export class Background {
  readonly #prefix = idlePrefix();
  readonly #running = new Set<number>();
  #idle = this.#prefix.length > 0;

  /** The command line that starts `command args` as a background step now. */
  command(command: string, args: string[]): string[] {
    return this.#idle ? [...this.#prefix, command, ...args] : [command, ...args];
  }

  started(pid: number | undefined): void {
    if (pid !== undefined) this.#running.add(pid);
  }

  ended(pid: number | undefined): void {
    if (pid !== undefined) this.#running.delete(pid);
  }

  /**
   * From now on background steps start at normal priority, and every running one, with every process it
   * started, moves to the normal class. A process started by an idle parent while this runs inherits the
   * idle class: passes repeat until none is left (at most five).
   */
  promote(): void {
    if (!this.#idle) return;
    this.#idle = false;
    if (this.#prefix[0] !== 'chrt') return; // nice levels cannot be lowered again without privileges
    for (let pass = 0; pass < 5; pass += 1) {
      const table = processes();
      const idle = descendants(this.#running, table).filter((pid) => table.get(pid)?.policy === SCHED_IDLE);
      if (idle.length === 0) return;
      for (const pid of idle) works('chrt', ['--all-tasks', '--other', '--pid', '0', String(pid)]);
    }
  }
}
