/** Read-only SQLite checks on a database the daemon left behind. */
import sqlite3 from 'sqlite3';

function withReadOnly<T>(path: string, work: (db: sqlite3.Database) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const db = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (openError) => {
      if (openError) {
        reject(openError);
        return;
      }
      work(db).then(
        (value) => db.close(() => resolve(value)),
        (err: unknown) => db.close(() => reject(err instanceof Error ? err : new Error(String(err)))),
      );
    });
  });
}

export function integrityCheck(path: string): Promise<string> {
  return withReadOnly(
    path,
    (db) =>
      new Promise<string>((resolve, reject) => {
        db.all('PRAGMA integrity_check', (err: Error | null, rows: { integrity_check: string }[]) =>
          err ? reject(err) : resolve(rows.map((row) => row.integrity_check).join('; ')),
        );
      }),
  );
}

export function queryNumber(path: string, sql: string): Promise<number> {
  return withReadOnly(
    path,
    (db) =>
      new Promise<number>((resolve, reject) => {
        db.get(sql, (err: Error | null, row: Record<string, unknown> | undefined) =>
          err ? reject(err) : resolve(Number(row ? Object.values(row)[0] : Number.NaN)),
        );
      }),
  );
}
