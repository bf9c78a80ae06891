/**
 * A fast path for the YAML our content is written in: block mappings of plain keys, whose values are
 * plain one-line text, double-quoted one-line text, whole numbers, true or false, literal blocks (`|`,
 * `|-`), nested mappings, or lists of such values or mappings; with comments and blank lines anywhere.
 * That is all of content/, site.yaml included, and it parses here in a few milliseconds, where js-yaml
 * takes 60-110 ms on a first build (its parser warms up on our 190 KB; this one needs no warm-up): the
 * largest part of the content stage.
 *
 * It never guesses. Anything else (flow collections, single quotes, anchors, tags, multi-line plain or
 * quoted text, tabs, nested lists, text that YAML would read as another number or null, a duplicated
 * key, a missing colon) makes it return undefined, and js-yaml parses the file instead; js-yaml also
 * words every error. tests/unit/yaml-fast.test.ts holds it to exactly js-yaml's result on every content
 * file and on thousands of generated documents.
 */

type Mapping = Record<string, unknown>;

type Frame =
  | {
      kind: "map";
      map: Mapping;
      /** Column of this mapping's keys; undefined until its first key is read. */
      indent: number | undefined;
      /** Column of the key (or dash) that holds it (-1 for the document). */
      parentIndent: number;
    }
  | {
      kind: "list";
      list: unknown[];
      /** Column of its dashes. */
      indent: number;
    };

/** A key and what follows it, read from a given column on (sticky: no copy of the line). */
const KEY_LINE = /([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*))?$/y;
/** What YAML's core schema reads as something other than text: those go to js-yaml. */
const NOT_TEXT = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9_.]+(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_:.eE+-]*|[-+]?0[xob][0-9a-fA-F_]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/** The numbers and booleans read here (site.yaml has them); any other non-text value goes to js-yaml. */
const INTEGER = /^(?:0|[1-9][0-9]{0,14})$/;
/** Characters that may not start plain text (YAML indicators) or give it another meaning. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0", " ": " " };

export function parseSimpleYaml(text: string): Mapping | undefined {
  // Tabs, carriage returns, a byte-order mark or control characters: js-yaml's rules, not ours.
  if (/[\t\r\uFEFF\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/.test(text)) return undefined;
  const lines = text.split("\n");
  const root: Mapping = {};
  const stack: Frame[] = [{ kind: "map", map: root, indent: undefined, parentIndent: -1 }];
  let keys = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const indent = indentOf(line);
    if (indent === line.length || line.charCodeAt(indent) === HASH) {
      i++;
      continue;
    }
    // Leave the mappings and lists this line is not part of.
    let top = stack[stack.length - 1];
    while (stack.length > 1) {
      const leaves = top.kind === "map" ? top.indent !== undefined && indent < top.indent : indent < top.indent || (indent === top.indent && !isDash(line, indent));
      if (!leaves) break;
      stack.pop();
      top = stack[stack.length - 1];
    }
    let column = indent;
    if (top.kind === "list") {
      // An item: "- key: value" starts a mapping whose keys line up after the dash; "- text" is text.
      if (indent !== top.indent || !isDash(line, indent)) return undefined;
      column = indent + 1 + indentOf(line.slice(indent + 1));
      if (column === indent + 1 || column >= line.length || line.charCodeAt(column) === HASH) return undefined;
      KEY_LINE.lastIndex = column;
      if (!KEY_LINE.test(line)) {
        const item = scalar(trimSpacesEnd(line.slice(column)));
        if (item === undefined) return undefined;
        i++;
        if (continues(lines, i, indent)) return undefined;
        top.list.push(item);
        continue;
      }
      const item: Mapping = {};
      top.list.push(item);
      top = { kind: "map", map: item, indent: column, parentIndent: indent };
      stack.push(top);
    } else if (top.indent === undefined) {
      if (indent <= top.parentIndent) return undefined;
      top.indent = indent;
    } else if (indent !== top.indent) {
      return undefined;
    }
    KEY_LINE.lastIndex = column;
    const match = KEY_LINE.exec(line);
    if (!match) return undefined;
    const [, key, rest = ""] = match;
    const map = top.map;
    if (Object.hasOwn(map, key) || key === "__proto__" || NOT_TEXT.test(key)) return undefined;
    keys++;
    i++;
    const value = trimSpacesEnd(rest);
    if (value === "" || value[0] === "#") {
      // A nested mapping or list when the next content line is indented further (a list may also start
      // at the key's own column); otherwise YAML's null.
      const next = nextContentLine(lines, i);
      const nextIndent = next === undefined ? -1 : indentOf(lines[next]);
      if (next !== undefined && nextIndent >= column && isDash(lines[next], nextIndent)) {
        const list: unknown[] = [];
        map[key] = list;
        stack.push({ kind: "list", list, indent: nextIndent });
      } else if (nextIndent > column) {
        const child: Mapping = {};
        map[key] = child;
        stack.push({ kind: "map", map: child, indent: undefined, parentIndent: column });
      } else {
        map[key] = null;
      }
      continue;
    }
    if (value[0] === "|") {
      const block = literalBlock(lines, i, column, value);
      if (!block) return undefined;
      map[key] = block.text;
      i = block.end;
      continue;
    }
    const item = scalar(value);
    // Text that goes on over the next line (more indented, even a comment) is multi-line text: js-yaml's job.
    if (item === undefined || continues(lines, i, column)) return undefined;
    map[key] = item;
  }
  return keys > 0 ? root : undefined;
}

/** "- " (or a lone "-") at that column: a list item. */
function isDash(line: string, column: number): boolean {
  return line.charCodeAt(column) === DASH && (column + 1 === line.length || line.charCodeAt(column + 1) === SPACE);
}

/** Whether the next non-blank line is indented past `column` (a scalar that goes on: not ours). */
function continues(lines: string[], from: number, column: number): boolean {
  const next = nextNonBlankLine(lines, from);
  return next !== undefined && indentOf(lines[next]) > column;
}

/** A one-line value: double-quoted or plain text, a whole number, true or false. */
function scalar(value: string): unknown {
  if (value[0] === '"') return doubleQuoted(value);
  const text = plainText(value);
  if (text === undefined) return undefined;
  if (INTEGER.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return NOT_TEXT.test(text) ? undefined : text;
}

const SPACE = 32;
const HASH = 35;
const DASH = 45;

/**
 * The spaces a line starts with (YAML indents with spaces only; tabs were refused up front, and a no-break
 * space is text); the line's length when it is blank.
 */
function indentOf(line: string): number {
  let n = 0;
  while (n < line.length && line.charCodeAt(n) === SPACE) n++;
  return n;
}

function trimSpacesEnd(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SPACE) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** The index of the next line that is neither blank nor a comment. */
function nextContentLine(lines: string[], from: number): number | undefined {
  for (let j = from; j < lines.length; j++) {
    const indent = indentOf(lines[j]);
    if (indent < lines[j].length && lines[j].charCodeAt(indent) !== HASH) return j;
  }
  return undefined;
}

function nextNonBlankLine(lines: string[], from: number): number | undefined {
  for (let j = from; j < lines.length; j++) if (indentOf(lines[j]) < lines[j].length) return j;
  return undefined;
}

/** Plain text, its comment cut off; undefined when YAML would read it as something else. */
function plainText(value: string): string | undefined {
  if (INDICATOR.test(value)) return undefined;
  const comment = value.indexOf(" #");
  const text = trimSpacesEnd(comment === -1 ? value : value.slice(0, comment));
  if (text.includes(": ") || text.endsWith(":")) return undefined;
  return text;
}

function doubleQuoted(value: string): string | undefined {
  let out = "";
  for (let j = 1; j < value.length; j++) {
    const c = value[j];
    if (c === '"') {
      const after = value.slice(j + 1);
      const gap = indentOf(after);
      return gap === after.length || (after.charCodeAt(gap) === HASH && gap > 0) ? out : undefined;
    }
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = value[++j];
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(value.slice(j + 1, j + 5))) {
      const code = parseInt(value.slice(j + 1, j + 5), 16);
      if (code >= 0xd800 && code <= 0xdfff) return undefined; // surrogates: js-yaml's rules
      out += String.fromCharCode(code);
      j += 4;
    } else return undefined;
  }
  return undefined; // no closing quote on this line
}

/** A literal block (`|` keeps one final line break, `|-` none), and the index of the line after it. */
function literalBlock(lines: string[], from: number, keyIndent: number, header: string): { text: string; end: number } | undefined {
  const m = /^\|(-?)(?:[ ]+#.*)?$/.exec(header);
  if (!m) return undefined;
  const strip = m[1] === "-";
  let blockIndent: number | undefined;
  const content: string[] = [];
  let j = from;
  for (; j < lines.length; j++) {
    const line = lines[j];
    const indent = indentOf(line);
    if (indent === line.length) {
      // Blank lines belong to the block; spaces past its indentation would be text (js-yaml's call).
      if (blockIndent !== undefined ? line.length > blockIndent : line.length > keyIndent + 1) return undefined;
      content.push("");
      continue;
    }
    if (indent <= keyIndent) break;
    if (blockIndent === undefined) blockIndent = indent;
    else if (indent < blockIndent) return undefined;
    content.push(line.slice(blockIndent));
  }
  while (content.length && content[content.length - 1] === "") content.pop();
  if (blockIndent === undefined) return undefined;
  const text = content.join("\n");
  return { text: strip ? text : `${text}\n`, end: j };
}
