/**
 * The cryptography of the members' messages on the bus (./bus.ts), on node:crypto. Each process makes
 * its own keys when it starts and registers their public halves with its member row (./registry.ts),
 * so that a message proves which member sent it, and only the member it is for can read it. Holding the
 * bus's credentials is not enough to speak as a member: the private keys never leave the process.
 *
 * - Unicast (a request, its answer, a subscription's push) is sealed with AES-256-GCM under the key the
 *   two members share: HKDF-SHA256 of their X25519 agreement, bound to the room and to both member ids.
 *   The associated data binds the subject, the sender, the receiver and the send time.
 * - Broadcast (the lobby's news, tournament news, waiting-list offers) carries no private view and is
 *   signed with the sender's Ed25519 key over the subject, the sender, the send time and the body.
 */
import {
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/** A member's public keys as stored with its row: DER (SPKI), base64. */
export interface PublicMemberKeys {
  /** Ed25519: verifies its broadcasts. */
  readonly sign: string;
  /** X25519: the other half of every key it shares with another member. */
  readonly box: string;
}

/** A member's public keys, parsed once. */
export interface PeerKeys {
  readonly sign: KeyObject;
  readonly box: KeyObject;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The keys of this process: made at start, never stored, never sent. */
export class MemberKeys {
  readonly #sign = generateKeyPairSync('ed25519');
  readonly #box = generateKeyPairSync('x25519');

  readonly public: PublicMemberKeys = {
    sign: this.#sign.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    box: this.#box.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };

  /**
   * The key this member shares with the member whose box key is `peer`: the same on both sides, bound
   * to the room and to both ids (in order), so it seals nothing between two other members.
   */
  sharedKey(peer: KeyObject, room: string, me: number, other: number): Buffer {
    const agreed = diffieHellman({ privateKey: this.#box.privateKey, publicKey: peer });
    const [low, high] = me < other ? [me, other] : [other, me];
    return Buffer.from(hkdfSync('sha256', agreed, room, `felt bus ${low} ${high}`, 32));
  }

  /** Ed25519's 64 bytes over `data`. */
  signature(data: Uint8Array): Buffer {
    return sign(null, data, this.#sign.privateKey);
  }
}

/** Parses stored public keys; null when they are not keys of the right kinds. */
export function peerKeys(stored: PublicMemberKeys): PeerKeys | null {
  try {
    const parse = (base64: string) =>
      createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    const keys = { sign: parse(stored.sign), box: parse(stored.box) };
    return keys.sign.asymmetricKeyType === 'ed25519' && keys.box.asymmetricKeyType === 'x25519' ? keys : null;
  } catch {
    return null;
  }
}

export function signatureValid(key: KeyObject, data: Uint8Array, signature: Uint8Array): boolean {
  try {
    return verify(null, data, key, signature);
  } catch {
    return false;
  }
}

/** Seals `plain`: a fresh IV, then the ciphertext and its tag. */
export function seal(key: Buffer, associated: Uint8Array, plain: Uint8Array): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(associated);
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** The plain bytes, or null when the key, the associated data or the bytes are not the sealer's. */
export function unseal(key: Buffer, associated: Uint8Array, sealed: Uint8Array): Buffer | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(associated);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return null;
  }
}
