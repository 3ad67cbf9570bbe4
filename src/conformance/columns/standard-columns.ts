import { bridgeColumn } from './bridge-column.js';
import { COLUMN_IDS } from './column.js';
import type { Column, ColumnId } from './column.js';
import { embeddedColumn } from './embedded-column.js';
import { sdkHttpColumn } from './sdk-http-column.js';
import { sdkMemoryColumn } from './sdk-memory-column.js';
import { sdkStdioColumn } from './sdk-stdio-column.js';

/** The six columns of SPEC §3, each a real path into the kernel, in report order. */
export function standardColumns(ids: readonly ColumnId[] = COLUMN_IDS): Column[] {
  const make: Record<ColumnId, () => Column> = {
    embedded: () => embeddedColumn(),
    bridge: () => bridgeColumn(),
    'sdk-memory': () => sdkMemoryColumn(),
    'sdk-stdio': () => sdkStdioColumn(),
    'sdk-http': () => sdkHttpColumn(),
    'sdk-http-reconnect': () => sdkHttpColumn({ reconnect: true }),
  };
  return ids.map((id) => make[id]());
}
