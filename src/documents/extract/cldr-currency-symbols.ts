/**
 * Currency symbols CLDR lists that the runtime's Intl does not format: the variant symbol
 * ("TL" for the Turkish lira, "грн" for the hryvnia) and the symbols of locales extract is
 * not asked about ("руб." as Belarusian writes the Russian rouble). Read from CLDR's own
 * data packages (cldr-numbers-full, cldr-core): the locale of every language official in
 * some country, each of its symbols (symbol, narrow, variant) of a currency in use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface CldrSymbol {
  symbol: string;
  /** ISO 4217 code. */
  code: string;
  /**
   * Written so by a language official in a country the currency is used in ("kn" in
   * Croatian, "лв." in Bulgarian, "TL" in Turkish): a short symbol read after an amount.
   */
  own: boolean;
}

interface TerritoryInfo {
  languagePopulation?: Record<string, { _officialStatus?: string }>;
}

type CurrencyEntry = Record<string, string>;

const SYMBOL_KEYS = ['symbol', 'symbol-alt-narrow', 'symbol-alt-variant'];

/** The regions each language is official in (official, de facto, regional). */
function officialRegions(): Map<string, Set<string>> {
  const territories = (
    require('cldr-core/supplemental/territoryInfo.json') as {
      supplemental: { territoryInfo: Record<string, TerritoryInfo> };
    }
  ).supplemental.territoryInfo;
  const regions = new Map<string, Set<string>>();
  for (const [region, info] of Object.entries(territories))
    for (const [language, status] of Object.entries(info.languagePopulation ?? {})) {
      if (!/official/.test(status._officialStatus ?? '')) continue;
      const locale = language.replace(/_/g, '-');
      regions.set(locale, (regions.get(locale) ?? new Set()).add(region));
    }
  return regions;
}

/** The regions each currency is or was tender in. */
function currencyRegions(): Map<string, Set<string>> {
  const byRegion = (
    require('cldr-core/supplemental/currencyData.json') as {
      supplemental: { currencyData: { region: Record<string, Record<string, unknown>[]> } };
    }
  ).supplemental.currencyData.region;
  const regions = new Map<string, Set<string>>();
  for (const [region, periods] of Object.entries(byRegion))
    for (const period of periods)
      for (const code of Object.keys(period))
        regions.set(code, (regions.get(code) ?? new Set()).add(region));
  return regions;
}

/**
 * Every symbol of a currency in `inUse` that a locale of an official language lists, once
 * per symbol and currency. The packages are dependencies: an install without them fails here
 * rather than reading amounts without the letter symbols ("RM", "zł") only they give.
 */
export function cldrSymbols(inUse: ReadonlySet<string>): CldrSymbol[] {
  const languages = officialRegions();
  const usedIn = currencyRegions();
  const dir = path.join(path.dirname(require.resolve('cldr-numbers-full/package.json')), 'main');
  const found = new Map<string, CldrSymbol>();
  for (const [locale, regions] of languages) {
    let currencies: Record<string, CurrencyEntry>;
    try {
      const file = path.join(dir, locale, 'currencies.json');
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        main: Record<string, { numbers: { currencies: Record<string, CurrencyEntry> } }>;
      };
      currencies = data.main[locale].numbers.currencies;
    } catch {
      continue;
    }
    for (const [code, entry] of Object.entries(currencies)) {
      if (!inUse.has(code)) continue;
      const own = [...(usedIn.get(code) ?? [])].some((region) => regions.has(region));
      for (const key of SYMBOL_KEYS) {
        const symbol = entry[key];
        if (!symbol || symbol === code) continue;
        const id = `${symbol}\u0000${code}`;
        const known = found.get(id);
        if (!known) found.set(id, { symbol, code, own });
        else if (own) known.own = true;
      }
    }
  }
  return [...found.values()];
}
