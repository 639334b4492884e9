/**
 * Registrations of people asking for an API key (migration 8). The daemon
 * creates them (POST /v1/registrations) and answers claims; the operator
 * reviews them with the CLI, possibly from another process. A registration
 * never creates a key by itself: only approve() does.
 */
import type { SqlDatabase } from '../store/sqlDatabase.js';
import { apiKeyDigest, digestBytesEqual, generateApiKey, hashApiKey } from '../store/apiKeyCodec.js';
import { createRegistrationSeal, generateClaimToken, openWithClaimToken, sealToRegistration } from './keySealing.js';

export const USAGE_KINDS = ['private', 'commercial'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];
export type RegistrationStatus = 'pending' | 'approved' | 'rejected' | 'claimed';

export interface NewRegistration {
  name: string;
  email: string;
  intendedUse: string;
  usageKind: UsageKind;
  clientAddress: string;
}

export interface Registration extends NewRegistration {
  id: number;
  status: RegistrationStatus;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  reason: string | null;
  note: string | null;
  keyId: number | null;
}

/** What a claim finds; `key` only the one time an approved registration is claimed. */
export type ClaimResult =
  | { status: 'unknown' }
  | { status: 'pending'; expiresAt: string }
  | { status: 'rejected'; reason: string | null }
  | { status: 'approved'; key: string; keyId: number }
  | { status: 'claimed' };

export class RegistrationError extends Error {}

interface Row {
  id: number;
  name: string;
  email: string;
  intended_use: string;
  usage_kind: UsageKind;
  client_address: string;
  status: RegistrationStatus;
  claim_hash: string;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  reason: string | null;
  note: string | null;
  key_id: number | null;
  seal_public: string | null;
  seal_private: string | null;
  sealed_key: string | null;
}

function fromRow(row: Row): Registration {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    intendedUse: row.intended_use,
    usageKind: row.usage_kind,
    clientAddress: row.client_address,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
    reason: row.reason,
    note: row.note,
    keyId: row.key_id,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A new claim token with its hash and seal, made outside any transaction (the key derivation takes a while). */
function prepareClaim(): { claimToken: string; claimHash: string; seal: ReturnType<typeof createRegistrationSeal> } {
  const claimToken = generateClaimToken();
  const claimHash = hashApiKey(claimToken);
  return { claimToken, claimHash, seal: createRegistrationSeal(claimToken, claimHash) };
}

export interface CreatedRegistration {
  id: number;
  claimToken: string;
  expiresAt: string;
}

/** Pending registrations allowed per key of the address (name: what a refusal reports). */
export interface PendingLimit<Name extends string = string> {
  name: Name;
  max: number;
  keyOf: (clientAddress: string) => string;
}

export interface RegistrationLimits<Name extends string = string> {
  perKey: ReadonlyArray<PendingLimit<Name>>;
  maxPending: number;
}

export type CreateOutcome<Name extends string = string> = (CreatedRegistration & { pending: number }) | { refused: Name | 'paused' };

export class RegistrationStore {
  readonly #db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  /** Stores a pending registration; the claim token exists only in the return value. */
  async create(registration: NewRegistration, nowMs: number, validForMs: number): Promise<CreatedRegistration> {
    return this.#insert(this.#db, registration, nowMs, validForMs);
  }

  /**
   * Stores a pending registration unless the limits refuse it, counting and inserting in one
   * transaction: concurrent registrations (also from another process) see each other's rows, so
   * five at once against a limit of three make three. Each limit counts the pending, unexpired
   * registrations whose address has the same key as the new one (`keyOf`: the client's /64 or
   * /32, its network's /48 or /24); `maxPending` counts all.
   */
  async createWithinLimits<Name extends string>(
    registration: NewRegistration,
    limits: RegistrationLimits<Name>,
    nowMs: number,
    validForMs: number,
  ): Promise<CreateOutcome<Name>> {
    const prepared = prepareClaim();
    // SQLite's write lock serialises these transactions; PostgreSQL takes a lock named after them.
    return this.#db.transaction<CreateOutcome<Name>>(
      async (db) => {
        const rows = await db.all<{ client_address: string }>(
          `SELECT client_address FROM registrations WHERE status = 'pending' AND expires_at > ?`,
          [iso(nowMs)],
        );
        for (const limit of limits.perKey) {
          const key = limit.keyOf(registration.clientAddress);
          if (rows.filter((row) => limit.keyOf(row.client_address) === key).length >= limit.max) return { refused: limit.name };
        }
        if (rows.length >= limits.maxPending) return { refused: 'paused' };
        return { ...(await this.#insert(db, registration, nowMs, validForMs, prepared)), pending: rows.length + 1 };
      },
      { serialize: 'registrations' },
    );
  }

  async #insert(
    db: SqlDatabase,
    registration: NewRegistration,
    nowMs: number,
    validForMs: number,
    prepared = prepareClaim(),
  ): Promise<CreatedRegistration> {
    const { claimToken, claimHash, seal } = prepared;
    const expiresAt = iso(nowMs + validForMs);
    const { lastID } = await db.run(
      `INSERT INTO registrations (name, email, intended_use, usage_kind, client_address, status, claim_hash, created_at, expires_at, seal_public, seal_private)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?) RETURNING id`,
      [
        registration.name,
        registration.email,
        registration.intendedUse,
        registration.usageKind,
        registration.clientAddress,
        claimHash,
        iso(nowMs),
        expiresAt,
        seal.publicKey,
        seal.sealedPrivateKey,
      ],
    );
    return { id: lastID, claimToken, expiresAt };
  }

  async list(options: { pending?: boolean } = {}): Promise<Registration[]> {
    const rows = await this.#db.all<Row>(`SELECT * FROM registrations ${options.pending ? "WHERE status = 'pending'" : ''} ORDER BY id`);
    return rows.map(fromRow);
  }

  async get(id: number): Promise<Registration | undefined> {
    const row = await this.#db.get<Row>('SELECT * FROM registrations WHERE id = ?', [id]);
    return row && fromRow(row);
  }

  /** Creates the registrant's key (hashed, as every key) and seals it for the claim. */
  async approve(id: number, nowMs: number, options: { allowGet?: boolean; note?: string } = {}): Promise<{ keyId: number; owner: string }> {
    return this.#db.transaction(async (db) => {
      const row = await this.#pending(db, id, nowMs);
      const key = generateApiKey();
      const owner = `${row.name} <${row.email}>`;
      const { lastID: keyId } = await db.run(
        'INSERT INTO api_keys (owner, key_hash, created_at, disabled, allow_get, note) VALUES (?, ?, ?, 0, ?, ?) RETURNING id',
        [owner, hashApiKey(key), iso(nowMs), options.allowGet ? 1 : 0, `registration ${id}${options.note ? `: ${options.note}` : ''}`],
      );
      // Only a registration still pending turns approved: a concurrent decision (another operator, another instance) wins once.
      const { changes } = await db.run(
        `UPDATE registrations SET status = 'approved', decided_at = ?, note = ?, key_id = ?, sealed_key = ? WHERE id = ? AND status = 'pending'`,
        [iso(nowMs), options.note ?? null, keyId, sealToRegistration(key, row.seal_public ?? ''), id],
      );
      if (changes !== 1) throw new RegistrationError(`registration ${id} was decided meanwhile, not pending`);
      return { keyId, owner };
    });
  }

  async reject(id: number, nowMs: number, reason?: string): Promise<void> {
    await this.#db.transaction(async (db) => {
      await this.#pending(db, id, nowMs);
      // Nothing the registrant could use is kept: the seal goes with the decision.
      const { changes } = await db.run(
        `UPDATE registrations SET status = 'rejected', decided_at = ?, reason = ?, seal_public = NULL, seal_private = NULL WHERE id = ? AND status = 'pending'`,
        [iso(nowMs), reason ?? null, id],
      );
      if (changes !== 1) throw new RegistrationError(`registration ${id} was decided meanwhile, not pending`);
    });
  }

  async #pending(db: SqlDatabase, id: number, nowMs: number): Promise<Row> {
    const row = await db.get<Row>('SELECT * FROM registrations WHERE id = ?', [id]);
    if (!row) throw new RegistrationError(`no registration has id ${id}`);
    if (row.status !== 'pending') throw new RegistrationError(`registration ${id} is ${row.status}, not pending`);
    if (row.expires_at <= iso(nowMs))
      throw new RegistrationError(`registration ${id} expired on ${row.expires_at}; its claim token no longer works`);
    return row;
  }

  /**
   * What the claim token finds. An approved registration hands out its key
   * exactly once: the row turns `claimed` and the sealed values are deleted in
   * the same transaction, so a second claim (even a concurrent one) only hears
   * "claimed". On PostgreSQL (no write lock for the whole database) the update
   * only takes a row still `approved`: of two concurrent claims on two
   * instances, the second waits for the first's commit and changes nothing.
   * Expired tokens find nothing.
   */
  async claim(claimToken: string, nowMs: number): Promise<ClaimResult> {
    const digest = apiKeyDigest(claimToken);
    const claimHash = digest.toString('hex');
    return this.#db.transaction(async (db) => {
      const row = await db.get<Row>('SELECT * FROM registrations WHERE claim_hash = ?', [claimHash]);
      if (!row || !digestBytesEqual(Buffer.from(row.claim_hash, 'hex'), digest) || row.expires_at <= iso(nowMs))
        return { status: 'unknown' };
      if (row.status === 'pending') return { status: 'pending', expiresAt: row.expires_at };
      if (row.status === 'rejected') return { status: 'rejected', reason: row.reason };
      if (row.status === 'claimed' || row.key_id === null) return { status: 'claimed' };
      const key =
        row.seal_public && row.seal_private && row.sealed_key
          ? openWithClaimToken({ publicKey: row.seal_public, sealedPrivateKey: row.seal_private }, row.sealed_key, claimToken, claimHash)
          : undefined;
      if (key === undefined) return { status: 'unknown' };
      const { changes } = await db.run(
        `UPDATE registrations SET status = 'claimed', seal_public = NULL, seal_private = NULL, sealed_key = NULL WHERE id = ? AND status = 'approved'`,
        [row.id],
      );
      return changes === 1 ? { status: 'approved', key, keyId: row.key_id } : { status: 'claimed' };
    });
  }

  /**
   * Deletes decided registrations (rejected, claimed) and expired ones created
   * before the cutoff: personal data is kept only while it is needed. Keys
   * created from them stay (their owner names the person).
   */
  async purge(olderThanMs: number, nowMs: number): Promise<number> {
    const { changes } = await this.#db.run(
      `DELETE FROM registrations WHERE created_at < ? AND (status IN ('rejected', 'claimed') OR expires_at <= ?)`,
      [iso(olderThanMs), iso(nowMs)],
    );
    return changes;
  }
}
