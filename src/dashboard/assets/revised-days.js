// Days of the shown period whose usage changed after an export first included them (a late
// event or a correction arrived): figures already sent to finance for them are out of date.
import { html, useEffect, useState } from './vendor/preact-htm.js';
import { getJson } from './api.js';
import { formatTimestamp } from './format.js';

export function RevisedDays({ orgId, start, end }) {
  const [days, setDays] = useState([]);
  useEffect(() => {
    const params = new URLSearchParams({ startDate: start, endDate: end });
    getJson(`/api/v1/orgs/${encodeURIComponent(orgId)}/revised-days?${params}`).then(
      (body) => setDays(body.data),
      () => setDays([]),
    );
  }, [orgId, start, end]);
  if (days.length === 0) return '';
  return html`<div class="state notice" id="revised-days" role="note">
    <p>
      <strong>Revised after export:</strong> these UTC days changed after an export first included
      them; exports made before hold older figures.
    </p>
    <ul>
      ${days.map((d) => {
        // One string: htm drops whitespace holding a line break, which the formatter adds
        // inside markup.
        const times = `first exported ${formatTimestamp(d.firstExportedAt)}, changed ${formatTimestamp(d.changedAt)}`;
        return html`<li key=${d.date} data-revised-day=${d.date}>${d.date}: ${times}</li>`;
      })}
    </ul>
  </div>`;
}
