// The shape of a schema migration (one file each in this folder, listed in order by index.ts).
// Each is one SQL script both SQLite and PostgreSQL accept; the only words that differ between them
// (binary and auto-increment columns) come from ColumnTypes, filled in by migrate() for its database.

export interface ColumnTypes {
  bytes: string;
  autoIncrementPrimaryKey: string;
}

export interface Migration {
  version: number;
  name: string;
  sql: (types: ColumnTypes) => string;
}
