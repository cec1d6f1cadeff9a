import { settingsOf, type SettingsTree } from './setting.js';
import { SETTINGS_SECTIONS } from './settings.schema.js';

/** Variables some code reads that are not settings of docproc, and why. */
export const NOT_SETTINGS: Record<string, string> = {
  JEST_WORKER_ID: 'set by jest; the worker pools run tasks in-thread under the test runner',
  DOCPROC_BUILD_SUFFIX:
    'read by `scripts/build-info.mjs` at build time (the API version suffix), not by the server',
  DOCPROC_ENCODER_DIR:
    "an install-layout override read by the executor processes: the folder of the sentence encoder's files when they are not in `models/use-multilingual-v3` of the install (`scripts/install-encoder.mjs` puts them there)",
  MALLOC_ARENA_MAX:
    "glibc's own variable, passed to the executor processes as 2 unless the operator sets it: one malloc arena per thread let OCR's language workers grow an executor past its recycle size (record 0531)",
};

/** Every variable name the schema knows. */
export function settingNames(): string[] {
  return SETTINGS_SECTIONS.flatMap((section) =>
    settingsOf(section.settings as SettingsTree).map((setting) => setting.env),
  );
}

const cell = (value: string): string => value.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** `docs/configuration.md`, generated from settings.schema.ts (`npm run docs:config`). */
export function renderConfigurationDoc(): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from src/config/settings.schema.ts by `npm run docs:config`; do not edit. -->',
    '',
    'docproc reads its settings from environment variables, once, at start-up. A value that',
    'does not fit its type or range stops the server (exit status 78), the worker and the',
    'admin CLI with a message naming the variable, e.g.',
    '`docproc: Invalid environment variable PORT: must be an integer 0 to 65535, got "http"`.',
    'Unset and empty mean the default, unless a setting says what empty means. Booleans take',
    '`true/false`, `1/0`, `yes/no`, `on/off`.',
    '',
  ];
  for (const section of SETTINGS_SECTIONS) {
    lines.push(
      `## ${section.title}`,
      '',
      '| Variable | Type | Default | Meaning |',
      '|---|---|---|---|',
    );
    for (const setting of settingsOf(section.settings as SettingsTree)) {
      lines.push(
        `| \`${setting.env}\` | ${cell(setting.type)} | ${cell(setting.defaultText)} | ${cell(setting.doc)} |`,
      );
    }
    lines.push('');
  }
  lines.push('## Not settings', '', 'Read by some code, but not configuration of docproc:', '');
  for (const [name, why] of Object.entries(NOT_SETTINGS)) lines.push(`- \`${name}\`: ${why}.`);
  return `${lines.join('\n')}\n`;
}
