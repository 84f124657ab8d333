/**
 * Items grouped by key in the order met, each row made into its item: `Map.groupBy` with a mapping,
 * which Node 20 does not have. A key with no rows is absent, so a caller says what "none" is.
 */
export function groupBy<Row, Key, Item>(
  rows: Iterable<Row>,
  keyOf: (row: Row) => Key,
  itemOf: (row: Row) => Item,
): Map<Key, Item[]> {
  const grouped = new Map<Key, Item[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const items = grouped.get(key);
    if (items === undefined) grouped.set(key, [itemOf(row)]);
    else items.push(itemOf(row));
  }
  return grouped;
}
