/**
 * One column of a store's table, in the one list each SQL dialect renders its `CREATE TABLE`
 * from: `text`, `integer`, `real` (a float) or `time` (epoch milliseconds). Columns are
 * `NOT NULL` unless `nullable`.
 */
export interface StoreColumn {
  readonly name: string;
  readonly type: 'text' | 'integer' | 'real' | 'time';
  readonly nullable?: boolean;
  readonly unique?: boolean;
}

/** How a dialect spells each column type, e.g. `{ text: 'TEXT', integer: 'INTEGER', real: 'REAL', time: 'INTEGER' }`. */
export type StoreColumnTypes = Readonly<Record<StoreColumn['type'], string>>;

/**
 * The column definitions of a `CREATE TABLE`, one a line, comma-separated (no trailing comma):
 * `id TEXT NOT NULL UNIQUE,\n  run_id TEXT NOT NULL, …`.
 */
export function renderColumns(columns: readonly StoreColumn[], types: StoreColumnTypes, indent = '  '): string {
  return columns
    .map((c) => `${indent}${c.name} ${types[c.type]}${c.nullable === true ? '' : ' NOT NULL'}${c.unique === true ? ' UNIQUE' : ''}`)
    .join(',\n');
}

/** The columns of `headway_sessions` after its integer key `pk`, in order. */
export const SESSION_COLUMNS: readonly StoreColumn[] = [
  { name: 'id', type: 'text', unique: true },
  { name: 'created_at', type: 'time' },
  { name: 'updated_at', type: 'time' },
  { name: 'message_count', type: 'integer' },
  { name: 'spent_usd', type: 'real' },
  { name: 'calls', type: 'integer' },
  { name: 'runs', type: 'integer' },
];
