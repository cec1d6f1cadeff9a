import { Parser } from 'htmlparser2';

/**
 * A small element tree of an Office Open XML part: element names without their namespace
 * prefix (`a:t` is `t`), attributes as written (`r:id`), the text directly inside each
 * element. The parts are checked for depth before (zip-limits.ts), so walking the tree
 * recursively cannot run out of stack.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** Parses an XML part into its root element (an empty `root` when it has none). */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: 'root', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = { name: localName(name), attributes, children: [], text: '' };
        stack[stack.length - 1].children.push(element);
        stack.push(element);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
      ontext(text) {
        stack[stack.length - 1].text += text;
      },
    },
    { xmlMode: true, recognizeSelfClosing: true },
  );
  parser.write(xml);
  parser.end();
  return root.children[0] ?? root;
}

/** An attribute by its qualified name, or by its local name under another prefix. */
export function attribute(element: XmlElement | undefined, name: string): string | undefined {
  if (!element) return undefined;
  if (element.attributes[name] !== undefined) return element.attributes[name];
  const local = localName(name);
  if (local === name) return undefined;
  for (const [key, value] of Object.entries(element.attributes)) {
    if (key.includes(':') && localName(key) === local) return value;
  }
  return undefined;
}

/** The first child named `name`. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** The element at the end of a path of child names. */
export function path(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let at = element;
  for (const name of names) at = child(at, name);
  return at;
}

/** Children named `name`. */
export function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children.filter((c) => c.name === name) ?? [];
}

/** Every descendant named `name`, in document order (not below a match). */
export function descendants(element: XmlElement | undefined, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (at: XmlElement) => {
    for (const c of at.children) {
      if (c.name === name) found.push(c);
      else visit(c);
    }
  };
  if (element) visit(element);
  return found;
}

/** A whole number attribute, or `fallback` when absent or not a number. */
export function numberAttribute(element: XmlElement | undefined, name: string, fallback = 0) {
  const value = Number(attribute(element, name));
  return Number.isFinite(value) ? value : fallback;
}

/** The part a relationship target names, from the folder of the part that holds it. */
export function resolvePart(from: string, target: string): string {
  const segments = target.startsWith('/') ? [] : from.split('/').slice(0, -1);
  for (const segment of target.replace(/^\//, '').split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}

/** The relationships part of `part` (`ppt/slides/slide1.xml` -> `ppt/slides/_rels/slide1.xml.rels`). */
export function relationshipsPart(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** Relationship id -> part name, from the text of `part`'s relationships (internal ones only). */
export function readRelationships(part: string, xml: string | undefined): Map<string, string> {
  const targets = new Map<string, string>();
  if (xml === undefined) return targets;
  for (const relationship of childrenNamed(parseXml(xml), 'Relationship')) {
    const id = attribute(relationship, 'Id');
    const target = attribute(relationship, 'Target');
    if (!id || !target || attribute(relationship, 'TargetMode') === 'External') continue;
    targets.set(id, resolvePart(part, target));
  }
  return targets;
}
