/**
 * The shape of one migration. Its own module so that the migration files and the list in
 * ./index.ts (which imports them) do not import each other.
 */
export interface Migration {
  version: number;
  name: string;
  /** One or more SQL statements, run inside one transaction. */
  up: string;
}
