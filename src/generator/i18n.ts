import type { Dictionary } from "./content.ts";

export interface Translator {
  locale: string;
  /** The text of a key, or the key itself when it is missing (spec: "a missing translation shows the key"). */
  t(key: string, vars?: Record<string, string | number>): string;
  has(key: string): boolean;
  /** How many numbered items `${prefix}.${item}1..N` exist, counting from 1 until the first gap. */
  count(prefix: string, item: string): number;
}

export type MissingKeyListener = (locale: string, key: string) => void;

/**
 * Every dotted prefix of every key ("a.b" of "a.b.c"), so a numbered item is found in one lookup; once per dictionary,
 * not per page.
 */
const prefixesOf = new WeakMap<Dictionary, Set<string>>();

function prefixes(dictionary: Dictionary): Set<string> {
  let found = prefixesOf.get(dictionary);
  if (!found) {
    found = new Set<string>();
    for (const key of dictionary.keys()) {
      for (let i = key.indexOf("."); i !== -1; i = key.indexOf(".", i + 1)) found.add(key.slice(0, i));
    }
    prefixesOf.set(dictionary, found);
  }
  return found;
}

export function createTranslator(locale: string, dictionary: Dictionary, onMissing?: MissingKeyListener): Translator {
  const has = (key: string) => dictionary.has(key);
  const keyPrefixes = prefixes(dictionary);
  const hasItem = (key: string) => dictionary.has(key) || keyPrefixes.has(key);
  return {
    locale,
    has,
    t(key, vars) {
      const text = dictionary.get(key);
      if (text === undefined) {
        onMissing?.(locale, key);
        return key;
      }
      if (!vars) return text;
      return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
    },
    count(prefix, item) {
      let n = 0;
      // A numbered item exists when any key starts with it: `service1.title` or `benefit1` alone.
      while (hasItem(`${prefix}.${item}${n + 1}`)) n++;
      return n;
    },
  };
}
