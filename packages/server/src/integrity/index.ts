/**
 * Game security (issue 23): the reports of ./reports.ts over every settled hand the room stored, read
 * page by page through the hand histories (`settledHands`). What `felt admin integrity` prints.
 */
import type { HandHistories, UserId } from '../storage/types.js';
import { readHand, type ReadHand } from './hands.js';
import { integrityReports, type Finding, type IntegrityOptions, type IntegrityReports } from './reports.js';

export { integrityReports, DEFAULT_ALPHA, type IntegrityOptions, type IntegrityReports } from './reports.js';
export { readHand, type ReadHand } from './hands.js';

/** A finding with its players named: `{ id, name }` in place of each account id. */
export type Named<T extends Finding> = Omit<T, 'players'> & {
  readonly players: readonly { readonly id: UserId; readonly name: string }[];
};

type NamedList<T> = T extends readonly (infer F extends Finding)[] ? readonly Named<F>[] : T;

/** The JSON document of `felt admin integrity` (docs/operators.md, "Game security"). */
export type IntegrityDocument = { readonly ok: true; readonly unreadable: number } & {
  readonly [K in keyof IntegrityReports]: NamedList<IntegrityReports[K]>;
};

const PAGE = 2000;

/** Reads every settled hand and computes the reports; hands whose PHH cannot be read are counted apart. */
export async function roomIntegrity(
  histories: Pick<HandHistories, 'settledHands'>,
  options: IntegrityOptions = {},
): Promise<IntegrityDocument> {
  const hands: ReadHand[] = [];
  const names = new Map<UserId, string>();
  let unreadable = 0;
  for (let after = 0; ;) {
    const page = await histories.settledHands({ after, limit: PAGE });
    for (const stored of page) {
      for (const p of stored.players) names.set(p.userId, p.name);
      const read = readHand(stored);
      if (read === null) unreadable++;
      else hands.push(read);
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.handId;
  }
  const reports = integrityReports(hands, options);
  const name = <F extends Finding>(list: readonly F[]): Named<F>[] =>
    list.map((f) => ({ ...f, players: f.players.map((id) => ({ id, name: names.get(id) ?? '' })) }));
  return {
    ok: true,
    alpha: reports.alpha,
    hands: reports.hands,
    unreadable,
    players: reports.players,
    seating: name(reports.seating),
    chipDumping: name(reports.chipDumping),
    softPlay: name(reports.softPlay),
    winRate: name(reports.winRate),
  };
}
