import type { JobType } from '../core/job.types.js';

function settingsOf(request: Record<string, unknown>): Record<string, unknown> {
  const settings = request.settings;
  return typeof settings === 'object' && settings !== null
    ? (settings as Record<string, unknown>)
    : {};
}

/**
 * Deep work: what the gpu worker kind takes ("the gpu kind takes the `accurate` /
 * deep work"). Deep Classify (`model: accurate`), deep extract (`settings.deep_extract`)
 * and deep split (`settings.deep_split`), the variants billed as their own features. Parse
 * and edit have no deep variant.
 */
export function isDeepWork(type: JobType, request: Record<string, unknown>): boolean {
  switch (type) {
    case 'Classify':
      return request.model === 'accurate';
    case 'Extract':
      return settingsOf(request).deep_extract === true;
    case 'Split':
      return settingsOf(request).deep_split === true;
    case 'Parse':
    case 'Edit':
      return false;
    case 'Pipeline':
      // Its steps' deep variants are in its stored plan; the run as a whole is cpu work.
      return false;
  }
}
