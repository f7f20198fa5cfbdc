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

  signature(data: string): string {
    return sign(null, Buffer.from(data), this.#sign.privateKey).toString('base64');
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

export function signatureValid(key: KeyObject, data: string, signature: string): boolean {
  try {
    return verify(null, Buffer.from(data), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** A sealed body: a fresh IV, and the ciphertext with its tag. */
export interface Sealed {
  readonly iv: string;
  readonly box: string;
}

export function seal(key: Buffer, associated: string, plain: Uint8Array): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associated));
  const box = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('base64'), box: box.toString('base64') };
}

/** The plain body, or null when the key, the associated data or the bytes are not the sealer's. */
export function unseal(key: Buffer, associated: string, sealed: Sealed): Buffer | null {
  try {
    const iv = Buffer.from(sealed.iv, 'base64');
    const box = Buffer.from(sealed.box, 'base64');
    if (iv.length !== IV_BYTES || box.length < TAG_BYTES) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(box.subarray(box.length - TAG_BYTES));
    return Buffer.concat([decipher.update(box.subarray(0, box.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}
