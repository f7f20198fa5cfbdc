/**
 * The waiting lists of a room of several processes: rows of `waiting_lists` in PostgreSQL, so that a
 * player joins a table's list through any process and the list outlives every process. Only the table's
 * owner offers its freed seats (one offerer a table: two processes never offer one seat to two heads),
 * taking the head off the list in one statement; the offer goes out on the bus, and every process sends
 * it to the player's connections it holds.
 */
import type { WaitlistSeatMessage } from '@felt/protocol';
import type { SeatOfferSink, WaitingLists } from '../lobby/waiting-lists.js';
import { intCol, textCol, type SqlExecutor } from '../storage/sql.js';
import type { AccountId } from '../table/types.js';
import type { Bus } from './bus.js';

const OFFERS_SUBJECT = 'waitlist-offers';

interface Offer {
  readonly account: AccountId;
  readonly message: WaitlistSeatMessage;
}

export class SharedWaitingLists implements WaitingLists {
  #counts = new Map<string, number>();
  #sink: SeatOfferSink = () => undefined;
  readonly #stopListening: () => void;

  constructor(
    private readonly db: SqlExecutor,
    private readonly bus: Bus,
    /** This process runs the table now (it makes the table's offers). */
    private readonly runsHere: (tableId: string) => boolean,
  ) {
    this.#stopListening = bus.subscribe(OFFERS_SUBJECT, (value) => {
      const offer = value as Offer;
      this.#sink(offer.account, offer.message);
    });
  }

  async join(tableId: string, account: AccountId): Promise<number> {
    await this.db.run(
      'INSERT INTO waiting_lists (table_id, user_id) VALUES (?, ?) ON CONFLICT (table_id, user_id) DO NOTHING',
      [tableId, account],
    );
    const row = await this.db.get(
      `SELECT COUNT(*) AS position FROM waiting_lists
        WHERE table_id = ? AND id <= (SELECT id FROM waiting_lists WHERE table_id = ? AND user_id = ?)`,
      [tableId, tableId, account],
    );
    return intCol(row!, 'position');
  }

  async leave(tableId: string, account: AccountId): Promise<void> {
    await this.db.run('DELETE FROM waiting_lists WHERE table_id = ? AND user_id = ?', [tableId, account]);
  }

  async drop(tableId: string): Promise<void> {
    await this.db.run('DELETE FROM waiting_lists WHERE table_id = ?', [tableId]);
  }

  count(tableId: string): number {
    return this.#counts.get(tableId) ?? 0;
  }

  async reload(): Promise<void> {
    const rows = await this.db.all(
      'SELECT table_id, COUNT(*) AS waiting FROM waiting_lists GROUP BY table_id',
    );
    this.#counts = new Map(rows.map((row) => [textCol(row, 'table_id'), intCol(row, 'waiting')]));
  }

  async takeHead(tableId: string): Promise<AccountId | null> {
    if (!this.runsHere(tableId)) return null;
    const row = await this.db.get(
      `DELETE FROM waiting_lists
        WHERE id = (SELECT id FROM waiting_lists WHERE table_id = ? ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING user_id`,
      [tableId],
    );
    if (row === undefined) return null;
    this.#counts.set(tableId, Math.max(0, this.count(tableId) - 1));
    return intCol(row, 'user_id');
  }

  offer(account: AccountId, message: WaitlistSeatMessage): void {
    const offer: Offer = { account, message };
    this.bus.publish(OFFERS_SUBJECT, offer);
  }

  onOffer(sink: SeatOfferSink): void {
    this.#sink = sink;
  }

  /** Stops hearing the offers (the bus closes next). */
  close(): void {
    this.#stopListening();
  }
}
