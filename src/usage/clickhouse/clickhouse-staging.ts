import type { UsageEventColumns } from '../ingestion/usage-event-columns.js';

/** A write's staging table (a session temporary table): the events as the normalizer made them. */
export const STAGING_COLUMNS = [
  'grp UInt32',
  'day Date',
  'source String',
  'event_id String',
  'org_id String',
  // 'YYYY-MM-DD hh:mm:ss' (UTC) and the milliseconds: 18.x has no sub-second DateTime.
  'event_time String',
  'event_ms UInt16',
  'product String',
  'feature String',
  'api_key_id String',
  'file_type String',
  'pages UInt32',
  // Exact decimal text, converted by toDecimal64 on the server (never a JS number).
  'credits String',
  'job_id Nullable(String)',
  'is_async UInt8',
  'metadata_json Nullable(String)',
  'meta_keys Array(String)',
  'meta_values Array(String)',
].join(', ');

export interface StagingLines {
  /** One JSON object per event and line (JSONEachRow). */
  lines: string;
  /** The UTC days the write touches: the only days its dedupe probe reads. */
  days: string[];
  carriesMetadata: boolean;
}

/** The groups' events as JSONEachRow lines (an event's `grp` is its group's position). */
export function stagingLines(groups: readonly UsageEventColumns[]): StagingLines {
  const parts: string[] = [];
  const days = new Set<string>();
  let carriesMetadata = false;
  groups.forEach((group, grp) => {
    const text = (code: number) => group.dictionary[code - 1];
    const entries = new Map<number, { keys: string[]; values: string[] }>();
    const { combo, key, value } = group.comboEntries;
    for (let i = 0; i < combo.length; i++) {
      let entry = entries.get(combo[i]);
      if (!entry) entries.set(combo[i], (entry = { keys: [], values: [] }));
      entry.keys.push(text(key[i]));
      entry.values.push(text(value[i]));
    }
    for (let row = 0; row < group.length; row++) {
      const time = group.eventTime[row];
      const day = text(group.day[row]);
      days.add(day);
      const meta = entries.get(group.combo[row]);
      if (meta) carriesMetadata = true;
      parts.push(
        JSON.stringify({
          grp,
          day,
          source: text(group.source[row]),
          event_id: group.eventId[row],
          org_id: text(group.org[row]),
          event_time: `${time.slice(0, 10)} ${time.slice(11, 19)}`,
          event_ms: Number(time.slice(20, 23)) || 0,
          product: text(group.product[row]),
          feature: text(group.feature[row]),
          api_key_id: text(group.apiKey[row]),
          file_type: text(group.fileType[row]),
          pages: group.pages[row],
          credits: group.credits[row],
          job_id: group.jobId[row],
          is_async: group.isAsync[row],
          metadata_json: group.metadataJson[row],
          meta_keys: meta?.keys ?? [],
          meta_values: meta?.values ?? [],
        }),
      );
    }
  });
  return { lines: parts.join('\n'), days: [...days].sort(), carriesMetadata };
}
