/**
 * The tables' waiting lists and the offers of freed seats to their heads. One process keeps them in
 * memory (`MemoryWaitingLists`); a room of several processes keeps them in PostgreSQL, shared by every
 * process (../cluster/waiting-lists.ts). Either way the lobby asks the same questions.
 */
import type { WaitlistSeatMessage } from '@felt/protocol';
import type { AccountId } from '../table/types.js';

export type SeatOfferSink = (account: AccountId, message: WaitlistSeatMessage) => void;

export interface WaitingLists {
  /** Puts the account at the end of the table's list (where he is, if on it); his position, 1 = next. */
  join(tableId: string, account: AccountId): Promise<number>;
  leave(tableId: string, account: AccountId): Promise<void>;
  /** The table's list is gone (the table closed). */
  drop(tableId: string): Promise<void>;
  /** How many wait at the table, as last read (the lobby's summaries are drawn synchronously). */
  count(tableId: string): number;
  /** Reads the counts again (a list shared by processes changes elsewhere). */
  reload(): Promise<void>;
  /**
   * Takes the head of the table's list off it, to be offered the free seat; null when nobody waits or
   * this process does not make the table's offers (another process runs it).
   */
  takeHead(tableId: string): Promise<AccountId | null>;
  /** Sends an offer to the account, wherever he is connected. */
  offer(account: AccountId, message: WaitlistSeatMessage): void;
  /** Where this process's offers go (the transport sends them to the account's connections). */
  onOffer(sink: SeatOfferSink): void;
}

/** The waiting lists of a room of one process. */
export class MemoryWaitingLists implements WaitingLists {
  readonly #lists = new Map<string, AccountId[]>();
  #sink: SeatOfferSink = () => undefined;

  join(tableId: string, account: AccountId): Promise<number> {
    const list = this.#lists.get(tableId) ?? [];
    if (!list.includes(account)) list.push(account);
    this.#lists.set(tableId, list);
    return Promise.resolve(list.indexOf(account) + 1);
  }

  leave(tableId: string, account: AccountId): Promise<void> {
    const list = this.#lists.get(tableId);
    const at = list?.indexOf(account) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    if (list?.length === 0) this.#lists.delete(tableId);
    return Promise.resolve();
  }

  drop(tableId: string): Promise<void> {
    this.#lists.delete(tableId);
    return Promise.resolve();
  }

  count(tableId: string): number {
    return this.#lists.get(tableId)?.length ?? 0;
  }

  reload(): Promise<void> {
    return Promise.resolve();
  }

  takeHead(tableId: string): Promise<AccountId | null> {
    const list = this.#lists.get(tableId);
    const head = list?.shift() ?? null;
    if (list?.length === 0) this.#lists.delete(tableId);
    return Promise.resolve(head);
  }

  offer(account: AccountId, message: WaitlistSeatMessage): void {
    this.#sink(account, message);
  }

  onOffer(sink: SeatOfferSink): void {
    this.#sink = sink;
  }
}
