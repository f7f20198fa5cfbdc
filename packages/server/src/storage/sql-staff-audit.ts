/**
 * The staff audit log (./staff-audit.ts) over the portable query layer: `staff_log` (append-only by
 * the schema's triggers) and `staff_log_head`, its one row holding the last seq and hash. An append
 * locks the head row first, so that appends at once take their turns and never fork the chain.
 */
import type { StaffLogEntry, StaffAudit } from './staff-audit.js';
import { checkChain, entryHash } from './staff-chain.js';
import { atomically, refuse, type SqlContext } from './sql-common.js';
import { StorageErrorCode } from './common.js';
import { intCol, lockingRead, textCol, type SqlRow } from './sql.js';

const HEAD = 'SELECT seq, hash FROM staff_log_head WHERE id = 1';
const HEAD_LOCKED = lockingRead(HEAD);
const ENTRY_COLUMNS = 'seq, at, staff_id, action, detail, prev_hash, hash';

function entryFromRow(row: SqlRow): StaffLogEntry {
  const staffId = row['staff_id'];
  return {
    seq: intCol(row, 'seq'),
    at: intCol(row, 'at'),
    staffId: staffId === null ? null : intCol(row, 'staff_id'),
    action: textCol(row, 'action'),
    detail: textCol(row, 'detail'),
    prevHash: textCol(row, 'prev_hash'),
    hash: textCol(row, 'hash'),
  };
}

export function sqlStaffAudit({ driver, clock }: SqlContext): StaffAudit {
  return {
    appendStaffAction({ staffId, action, detail }) {
      return atomically(driver, async (tx) => {
        if (action.length === 0) refuse(StorageErrorCode.BAD_REQUEST, 'a staff action needs a name');
        const head = (await tx.get(HEAD_LOCKED[tx.dialect]))!;
        const unhashed = {
          seq: intCol(head, 'seq') + 1,
          at: clock(),
          staffId,
          action,
          detail,
          prevHash: textCol(head, 'hash'),
        };
        const entry: StaffLogEntry = { ...unhashed, hash: entryHash(unhashed) };
        await tx.run(`INSERT INTO staff_log (${ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
          entry.seq,
          entry.at,
          entry.staffId,
          entry.action,
          entry.detail,
          entry.prevHash,
          entry.hash,
        ]);
        await tx.run('UPDATE staff_log_head SET seq = ?, hash = ? WHERE id = 1', [entry.seq, entry.hash]);
        return entry;
      });
    },

    async staffLog(afterSeq = 0, limit = 100) {
      const rows = await driver.all(
        `SELECT ${ENTRY_COLUMNS} FROM staff_log WHERE seq > ? ORDER BY seq LIMIT ?`,
        [afterSeq, limit],
      );
      return rows.map(entryFromRow);
    },

    checkStaffLog() {
      return driver.transaction(
        async (tx) => {
          const head = (await tx.get(HEAD))!;
          const rows = await tx.all(`SELECT ${ENTRY_COLUMNS} FROM staff_log ORDER BY seq`);
          return checkChain(rows.map(entryFromRow), {
            seq: intCol(head, 'seq'),
            hash: textCol(head, 'hash'),
          });
        },
        { readOnly: true },
      );
    },
  };
}
