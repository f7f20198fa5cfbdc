/**
 * Where a tournament's tables write their hands. Tournament chips are not money, so they never reach
 * the money ledger: this book keeps, in the room's process, the chips each hand in progress has taken
 * from its players' stacks, and refuses a settlement that pays out other than what was put in. The
 * controller adds `chipsInHands()` to the stacks it knows to check that the chips total is the chips
 * sold. (Tournament storage and recovery after a crash are not built yet: see docs/tournaments.md.)
 */
import { StorageErrorCode, type FairLink, type HandActionRecord, type NewHand } from '../storage/types.js';
import type { TableStorage } from '../table/types.js';

const refused = (message: string) =>
  Promise.resolve({ ok: false, error: { code: StorageErrorCode.BAD_REQUEST, message } } as const);

export class TournamentHandBook implements TableStorage {
  /** Chips in the pot of each hand in progress. */
  readonly #pots = new Map<number, number>();
  /** Each table's fair-dealing chain: a tournament's tables are dealt again from a new chain after a restart. */
  readonly #fairLinks = new Map<string, FairLink>();
  #nextHand = 1;
  #handsDealt = 0;

  get handsDealt(): number {
    return this.#handsDealt;
  }

  /** Chips in the pots of the hands in progress. */
  chipsInHands(): number {
    let sum = 0;
    for (const pot of this.#pots.values()) sum += pot;
    return sum;
  }

  buyIn() {
    return refused('tournament seats are given by the tournament, never bought');
  }

  cashOut() {
    return refused('tournament chips are never cashed out');
  }

  startHand(hand: NewHand) {
    const id = this.#nextHand++;
    this.#handsDealt++;
    this.#pots.set(
      id,
      (hand.posts ?? []).reduce((sum, move) => sum + move.amount, 0),
    );
    return Promise.resolve({ ok: true, value: id } as const);
  }

  recordAction(record: HandActionRecord) {
    const pot = this.#pots.get(record.handId);
    if (pot === undefined) return refused(`hand ${record.handId} is not in progress`);
    const after = pot + (record.moves ?? []).reduce((sum, move) => sum + move.amount, 0);
    const settlement = record.settlement;
    if (settlement === undefined) {
      this.#pots.set(record.handId, after);
      return Promise.resolve({ ok: true, value: undefined } as const);
    }
    const paid = settlement.awards.reduce((sum, award) => sum + award.amount, 0) + settlement.rake;
    if (paid !== after) return refused(`hand ${record.handId} pays ${paid} from a pot of ${after}`);
    this.#pots.delete(record.handId);
    return Promise.resolve({ ok: true, value: undefined } as const);
  }

  fairLink(tableId: string) {
    return Promise.resolve(this.#fairLinks.get(tableId) ?? null);
  }

  saveFairLink(tableId: string, link: FairLink) {
    this.#fairLinks.set(tableId, link);
    return Promise.resolve({ ok: true, value: undefined } as const);
  }
}
