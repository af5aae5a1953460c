/**
 * ElectroDB cursor (base64url JSON of DynamoDB's LastEvaluatedKey) that resumes right after
 * `item`, built from the item's physical keys (read with `data: 'includeKeys'`): the table keys
 * plus, for a GSI, that index's keys. Used by lists that filter an index's pages themselves and
 * stop mid-page (ElectroDB 3.9 has no public composite-to-cursor conversion).
 * @param gsi the index name (`gsi1`…), or undefined for the table index
 */
export const keyCursor =
  (gsi: string | undefined) =>
  (item: Record<string, unknown>): string => {
    const key: Record<string, unknown> = { pk: item.pk, sk: item.sk };
    if (gsi) {
      key[`${gsi}pk`] = item[`${gsi}pk`];
      key[`${gsi}sk`] = item[`${gsi}sk`];
    }
    return Buffer.from(JSON.stringify(key)).toString('base64url');
  };
