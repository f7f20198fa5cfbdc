/**
 * Who may speak on the bus: the live members, with the public keys each registered when it joined
 * (./registry.ts). A message that names a member that is not live — never joined, left, or missed its
 * heartbeat (a stopped process, or a replay of an old member's message) — is refused by the bus.
 */
import { peerKeys, type PeerKeys, type PublicMemberKeys } from './bus-crypto.js';
import type { MemberId } from './registry.js';

export interface MemberLookup {
  /** The member's registered public keys while it is live, else null. */
  liveMemberKeys(member: MemberId): Promise<PublicMemberKeys | null>;
}

/** How many members not live are remembered (a flood of made-up ids must not grow it without end). */
const REFUSED_KEPT = 1024;

export class LiveMembers {
  /** Keys never change under one member id (a process joining again is a new member). */
  readonly #keys = new Map<MemberId, PeerKeys>();
  /** Until when each member is known live without asking the database again. */
  readonly #liveUntil = new Map<MemberId, number>();
  /** Until when each member is known not live. */
  readonly #refusedUntil = new Map<MemberId, number>();
  readonly #asking = new Map<MemberId, Promise<PeerKeys | null>>();

  constructor(
    private readonly lookup: MemberLookup,
    /**
     * How long an answer about a member's liveness holds: longer than a look at the leases, which
     * renews it for every live member (a message then never waits on the database), shorter than a
     * lease, after which a member not heard from is dead.
     */
    private readonly freshMs = 2500,
  ) {}

  /** A look at the members (by the database's clock) saw `live` live just now. */
  saw(live: Iterable<MemberId>, now = Date.now()): void {
    for (const member of live) {
      if (this.#keys.has(member)) this.#liveUntil.set(member, now + this.freshMs);
      this.#refusedUntil.delete(member);
    }
  }

  /** The member's keys if it is live, else null. */
  keysOf(member: MemberId, now = Date.now()): Promise<PeerKeys | null> {
    const keys = this.#keys.get(member);
    if (keys !== undefined && (this.#liveUntil.get(member) ?? 0) > now) return Promise.resolve(keys);
    if ((this.#refusedUntil.get(member) ?? 0) > now) return Promise.resolve(null);
    const asking = this.#asking.get(member);
    if (asking !== undefined) return asking;
    const answer = this.#ask(member, now).finally(() => this.#asking.delete(member));
    this.#asking.set(member, answer);
    return answer;
  }

  async #ask(member: MemberId, now: number): Promise<PeerKeys | null> {
    const stored =
      Number.isSafeInteger(member) && member > 0 ? await this.lookup.liveMemberKeys(member) : null;
    const keys = stored === null ? null : (this.#keys.get(member) ?? peerKeys(stored));
    if (keys === null) {
      this.#liveUntil.delete(member);
      if (this.#refusedUntil.size >= REFUSED_KEPT) this.#refusedUntil.clear();
      this.#refusedUntil.set(member, now + this.freshMs);
      return null;
    }
    this.#keys.set(member, keys);
    this.#liveUntil.set(member, now + this.freshMs);
    return keys;
  }
}
