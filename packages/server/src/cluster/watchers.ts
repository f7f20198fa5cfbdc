/**
 * The owner's side of the requests other members send about a table it runs (./owner-protocol.ts):
 * commands applied to the actor, and the subscriptions other members hold there — each publishing the
 * table's messages on the subscriber's subject with this owner's epoch and a sequence number (./bus.ts).
 */
import { TableErrorCode, type CommandResult, type Table, type TableMessage } from '../table/types.js';
import { checkStacks } from '../ledger/live-stacks.js';
import type { Bus, BusPush } from './bus.js';
import type { OwnerReply, OwnerRequest } from './owner-protocol.js';
import type { MemberId } from './registry.js';

/** A remote member's subscription to one of this member's tables. */
interface RemoteWatcher {
  readonly member: MemberId;
  readonly tableId: string;
  readonly unsubscribe: () => void;
}

const OK = { ok: true } as const;

/** The subjects a member's subscriptions are pushed on (./member.ts `pushSubject`). */
export const pushSubjectPrefix = (member: MemberId): string => `push.${member}.`;

const NOT_ITS_SUBJECT: CommandResult = {
  ok: false,
  error: { code: TableErrorCode.WRONG_STATE, message: 'pushes go only to the subscribing member' },
};

/**
 * A command's answer: a table stopped here meanwhile (its lease lost, handed over, this process
 * leaving) refused it before applying anything, so the caller is told this member is not the owner and
 * tries the next one with the same request id, as it does for a table it runs itself (./cluster-table.ts).
 */
const answered = (result: CommandResult): OwnerReply =>
  !result.ok && result.error.code === TableErrorCode.SHUTTING_DOWN
    ? { owner: false }
    : { owner: true, result };

export class RemoteWatchers {
  readonly #watchers = new Map<string, RemoteWatcher>();

  constructor(private readonly bus: Bus) {}

  /** Answers `body`, sent by member `from`, for `local`, the actor this member runs through lease `epoch`. */
  async answer(local: Table, epoch: number, body: OwnerRequest, from: MemberId): Promise<OwnerReply> {
    switch (body.kind) {
      case 'handle':
        return answered(await local.handle(body.player, body.command));
      case 'control':
        return answered(await local.control(body.command));
      case 'subscribe': {
        // Pushes go sealed to the member that asked, on a subject of its own: none other reads them.
        if (body.member !== from || !body.subject.startsWith(pushSubjectPrefix(from))) {
          return { owner: true, result: NOT_ITS_SUBJECT };
        }
        let seq = 0;
        const unsubscribe = local.subscribe(body.viewer, (message) => {
          const push: BusPush<TableMessage> = { epoch, seq: ++seq, message };
          this.bus.publishTo(from, body.subject, push);
        });
        this.#end(body.subject);
        this.#watchers.set(body.subject, { member: from, tableId: body.tableId, unsubscribe });
        return { owner: true, result: OK };
      }
      case 'unsubscribe':
        if (this.#watchers.get(body.subject)?.member === from) this.#end(body.subject);
        return { owner: true, result: OK };
      case 'last-summary':
        return { owner: true, recap: await local.lastSummary(body.viewer) };
      case 'check-stacks':
        return { owner: true, stackProblems: await checkStacks(local) };
    }
  }

  /** Ends the subscriptions to a table this member does not run any more. */
  dropTable(tableId: string): void {
    for (const [subject, watcher] of this.#watchers) if (watcher.tableId === tableId) this.#end(subject);
  }

  /** Ends the subscriptions to tables not in `running` (closed since). */
  keepTables(running: ReadonlySet<string>): void {
    for (const [subject, watcher] of this.#watchers) if (!running.has(watcher.tableId)) this.#end(subject);
  }

  /** Ends the subscriptions of the members `dead` names (nobody reads their subjects). */
  endMembers(dead: (member: MemberId) => boolean): void {
    for (const [subject, watcher] of this.#watchers) if (dead(watcher.member)) this.#end(subject);
  }

  clear(): void {
    for (const subject of [...this.#watchers.keys()]) this.#end(subject);
  }

  #end(subject: string): void {
    this.#watchers.get(subject)?.unsubscribe();
    this.#watchers.delete(subject);
  }
}
