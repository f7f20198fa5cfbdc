/**
 * The document of `felt admin integrity` built from the stored hands given page by page: each hand read
 * (./hands.ts) as it comes, the reports (./reports.ts) computed at the end and their players named.
 */
import type { StoredHand, UserId } from '../storage/types.js';
import { readHand, type ReadHand } from './hands.js';
import { integrityReports, type Finding, type IntegrityOptions, type IntegrityReports } from './reports.js';

/** A finding with its players named: `{ id, name }` in place of each account id. */
export type Named<T extends Finding> = Omit<T, 'players'> & {
  readonly players: readonly { readonly id: UserId; readonly name: string }[];
};

type NamedList<T> = T extends readonly (infer F extends Finding)[] ? readonly Named<F>[] : T;

/** The JSON document of `felt admin integrity` (docs/operators.md, "Game security"). */
export type IntegrityDocument = { readonly ok: true; readonly unreadable: number } & {
  readonly [K in keyof IntegrityReports]: NamedList<IntegrityReports[K]>;
};

export class IntegrityBuilder {
  readonly #hands: ReadHand[] = [];
  readonly #names = new Map<UserId, string>();
  #unreadable = 0;

  /** Hands whose PHH cannot be read are counted apart. */
  add(page: readonly StoredHand[]): void {
    for (const stored of page) {
      for (const p of stored.players) this.#names.set(p.userId, p.name);
      const read = readHand(stored);
      if (read === null) this.#unreadable++;
      else this.#hands.push(read);
    }
  }

  document(options: IntegrityOptions = {}): IntegrityDocument {
    const reports = integrityReports(this.#hands, options);
    const name = <F extends Finding>(list: readonly F[]): Named<F>[] =>
      list.map((f) => ({ ...f, players: f.players.map((id) => ({ id, name: this.#names.get(id) ?? '' })) }));
    return {
      ok: true,
      alpha: reports.alpha,
      hands: reports.hands,
      unreadable: this.#unreadable,
      players: reports.players,
      seating: name(reports.seating),
      chipDumping: name(reports.chipDumping),
      softPlay: name(reports.softPlay),
      winRate: name(reports.winRate),
    };
  }
}
