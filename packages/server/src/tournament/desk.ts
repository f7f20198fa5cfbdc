/**
 * The tournaments as the players' requests reach them: one answer per request, in wire shapes, so that
 * a room on several processes can send each to the process that directs the tournaments and back
 * (../cluster/tournaments.ts). `localDesk` answers from a `TournamentRoom` of this process.
 */
import type { Result } from '@felt/engine';
import {
  ErrorCode,
  type TournamentDealView,
  type TournamentDetail,
  type TournamentSummary,
} from '@felt/protocol';
import type { DealKind } from './deal.js';
import type { Purchase, TournamentErrorCode } from './director.js';
import type { TournamentNotice, TournamentRoom } from './room.js';
import type { AccountId, PlayerRef, Table } from '../table/types.js';
import { dealOf, detailOf, summaryOf } from './views.js';

/** An answer, or the protocol's error code and words. */
export type DeskAnswer<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string };

/** A player's request about a tournament (its id and the player's account with it). */
export type DeskRequest =
  | { readonly kind: 'list'; readonly account: AccountId }
  | { readonly kind: 'get'; readonly id: string; readonly account: AccountId }
  | { readonly kind: 'register'; readonly id: string; readonly player: PlayerRef }
  | { readonly kind: 'unregister'; readonly id: string; readonly account: AccountId }
  | { readonly kind: 'buy'; readonly id: string; readonly account: AccountId; readonly purchase: Purchase }
  | { readonly kind: 'propose'; readonly id: string; readonly account: AccountId; readonly deal: DealKind }
  | { readonly kind: 'accept'; readonly id: string; readonly account: AccountId }
  | { readonly kind: 'decline'; readonly id: string; readonly account: AccountId };

/** What each request is answered with. */
export interface DeskValues {
  readonly list: readonly TournamentSummary[];
  readonly get: TournamentDetail;
  readonly register: null;
  readonly unregister: null;
  readonly buy: null;
  readonly propose: TournamentDealView;
  readonly accept: null;
  readonly decline: null;
}

export type DeskAnswerTo<R extends DeskRequest> = DeskAnswer<DeskValues[R['kind']]>;

export interface TournamentDesk {
  ask<R extends DeskRequest>(request: R): Promise<DeskAnswerTo<R>>;
  /** A tournament table by id, where the table ops reach it. */
  table(tableId: string): Table | undefined;
  /** Where the notices to entrants go (the transport sends them to the account's connections). */
  onNotice(sink: (account: AccountId, notice: TournamentNotice) => void): void;
}

/** The desk as the room runs it: started once the room listens, closed when it stops. */
export interface TournamentService extends TournamentDesk {
  /** Resumes the runs stored in play and opens those due (on several processes: once it directs them). */
  start(): Promise<void>;
  /** Stops the runs here; each goes on from its last checkpoint. */
  close(): Promise<void>;
}

const TOURNAMENT_ERRORS: { readonly [C in TournamentErrorCode]: ErrorCode } = {
  REGISTRATION_CLOSED: ErrorCode.REGISTRATION_CLOSED,
  ALREADY_REGISTERED: ErrorCode.ALREADY_REGISTERED,
  NOT_REGISTERED: ErrorCode.NOT_REGISTERED,
  ALREADY_STARTED: ErrorCode.TOURNAMENT_STARTED,
  INSUFFICIENT_FUNDS: ErrorCode.INSUFFICIENT_FUNDS,
  PAYMENT_REFUSED: ErrorCode.PAYMENT_REFUSED,
  NOT_OFFERED: ErrorCode.NOT_OFFERED,
  OUT_OF_WINDOW: ErrorCode.OUT_OF_WINDOW,
  LIMIT_REACHED: ErrorCode.LIMIT_REACHED,
  STACK_TOO_BIG: ErrorCode.STACK_TOO_BIG,
  STILL_PLAYING: ErrorCode.STILL_PLAYING,
  NOT_PLAYING: ErrorCode.NOT_PLAYING,
  NOT_FINAL_TABLE: ErrorCode.NOT_FINAL_TABLE,
  DEAL_OPEN: ErrorCode.DEAL_OPEN,
  NO_DEAL_OPEN: ErrorCode.NO_DEAL_OPEN,
  DEAL_PENDING: ErrorCode.DEAL_PENDING,
};

const done = <T>(value: T): DeskAnswer<T> => ({ ok: true, value });

/** A director's refusal as the protocol's. */
function refused<T>(result: {
  readonly ok: false;
  readonly error: { readonly code: TournamentErrorCode; readonly message: string };
}): DeskAnswer<T> {
  return { ok: false, code: TOURNAMENT_ERRORS[result.error.code], message: result.error.message };
}

const ended = (result: Result<void, TournamentErrorCode>): DeskAnswer<null> =>
  result.ok ? done(null) : refused(result);

/** Answers a request from `room`, the tournaments this process directs. */
export async function answerFrom(room: TournamentRoom, request: DeskRequest): Promise<DeskAnswer<unknown>> {
  if (request.kind === 'list') return done(room.all().map((d) => summaryOf(d, request.account)));
  const director = await room.find(request.id);
  if (director === undefined)
    return { ok: false, code: ErrorCode.NO_SUCH_TOURNAMENT, message: `no tournament ${request.id}` };
  switch (request.kind) {
    case 'get':
      return done(detailOf(director, request.account));
    case 'register':
      return ended(await room.register(request.id, request.player));
    case 'unregister':
      return ended(await director.unregister(request.account));
    case 'buy':
      return ended(await director.buy(request.account, request.purchase));
    case 'propose': {
      const result = await director.proposeDeal(request.account, request.deal);
      if (!result.ok) return refused(result);
      const deal = dealOf(director);
      return deal === null
        ? { ok: false, code: ErrorCode.INTERNAL, message: 'the deal is gone' }
        : done(deal);
    }
    case 'accept':
      return ended(await director.acceptDeal(request.account));
    case 'decline':
      return ended(await director.declineDeal(request.account));
  }
}

/** The desk of a room whose tournaments this process directs (one process). */
export function localDesk(room: TournamentRoom): TournamentService {
  return {
    start: () => room.start(),
    close: () => room.close(),
    ask: <R extends DeskRequest>(request: R) => answerFrom(room, request) as Promise<DeskAnswerTo<R>>,
    table: (tableId) => room.table(tableId),
    onNotice: (sink) => {
      room.onNotice(sink);
    },
  };
}
