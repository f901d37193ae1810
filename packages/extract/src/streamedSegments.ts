import { Parser } from 'htmlparser2';

/** React's markers: a finished segment `<div hidden id="S:1f">`, and the slots it fills, `B:1f` (a Suspense boundary) or `P:1f`. */
const SEGMENT_ID = /^S:([0-9a-f]+)$/;
const SLOT_ID = /^([BP]):([0-9a-f]+)$/;
/** Comments that open (`$` done, `$?` pending, `$!` failed) and close a Suspense boundary. */
const BOUNDARY_OPENS: ReadonlySet<string> = new Set(['$', '$?', '$!']);
const BOUNDARY_CLOSE = '/$';

interface Segment {
  /** The hidden wrapper, start tag to end tag, and what it holds. */
  readonly outerStart: number;
  readonly outerEnd: number;
  readonly innerStart: number;
  readonly innerEnd: number;
}

interface Slot {
  readonly key: string;
  readonly start: number;
  /** Where what the segment replaces ends: the template, or a boundary's fallback up to its closing comment. */
  end: number;
  /** The segment whose wrapper holds the slot, if any: the slot is filled only once that one is placed. */
  readonly insideSegment: string | undefined;
}

interface OpenElement {
  readonly outerStart: number;
  readonly innerStart: number;
  readonly segmentKey?: string;
  readonly slot?: Slot;
}

/** A boundary slot whose closing comment is still to come; `depth`: open elements around it. */
interface OpenBoundary {
  readonly slot: Slot;
  readonly depth: number;
  nested: number;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  /** The segment that replaces the range; none: the range (a placed segment's wrapper) is removed. */
  readonly segmentKey?: string;
}

/**
 * Puts the segments of a page streamed by React (18+: Next.js's app router, Remix) where the page's
 * scripts would put them. Such a page sends its shell first, with a slot wherever content was not
 * ready — `<template id="B:0">` followed by a fallback (a skeleton, "Loading...") up to the boundary's
 * `<!--/$-->`, or `<template id="P:1">` — and then each finished part in `<div hidden id="S:0">`, with a
 * one-line script that moves it into its slot. Read without scripts, such a page is skeletons, and
 * its article is hidden, so no method read it (33 of wcxb's 1,497 pages; 7 of its articles read as
 * their footer). As React's `$RC` and `$RS` do: a segment replaces its `P:` template, or its `B:`
 * template and the fallback after it; segments fill slots inside other segments; a segment without a
 * slot stays hidden where it is. Pages saved without their comments keep the fallback (where it ends
 * is unknown), which costs a "Loading..." line, never text. Offsets come from htmlparser2, so the rest of the
 * page is kept byte for byte.
 */
export function placeStreamedSegments(html: string): string {
  if (!html.includes('id="S:')) return html;
  const segments = new Map<string, Segment>();
  const slots: Slot[] = [];
  const open: OpenElement[] = [];
  const openSegments: string[] = [];
  let boundaries: OpenBoundary[] = [];
  const parser = new Parser({
    onopentag(_name, attribs) {
      const id = attribs.id ?? '';
      const segmentKey = attribs.hidden !== undefined ? SEGMENT_ID.exec(id)?.[1] : undefined;
      const slotId = SLOT_ID.exec(id);
      const slot: Slot | undefined = slotId
        ? { key: slotId[2] as string, start: parser.startIndex, end: parser.endIndex + 1, insideSegment: openSegments.at(-1) }
        : undefined;
      if (slot) slots.push(slot);
      if (slot && slotId?.[1] === 'B') boundaries.push({ slot, depth: open.length, nested: 0 });
      if (segmentKey !== undefined) openSegments.push(segmentKey);
      open.push({
        outerStart: parser.startIndex,
        innerStart: parser.endIndex + 1,
        ...(segmentKey === undefined ? {} : { segmentKey }),
        ...(slot ? { slot } : {}),
      });
    },
    onclosetag(_name, isImplied) {
      const element = open.pop();
      if (!element) return;
      // An element closed by another tag (no end tag of its own) ends where that tag starts.
      const end = isImplied ? parser.startIndex : parser.endIndex + 1;
      if (element.slot) element.slot.end = end;
      if (element.segmentKey !== undefined) {
        openSegments.pop();
        if (!segments.has(element.segmentKey)) {
          segments.set(element.segmentKey, { outerStart: element.outerStart, outerEnd: end, innerStart: element.innerStart, innerEnd: parser.startIndex });
        }
      }
      boundaries = boundaries.filter((boundary) => boundary.depth <= open.length);
    },
    oncomment(data) {
      for (const boundary of boundaries) {
        if (boundary.depth !== open.length) continue;
        if (BOUNDARY_OPENS.has(data)) boundary.nested++;
        else if (data === BOUNDARY_CLOSE && boundary.nested-- === 0) boundary.slot.end = parser.startIndex;
      }
      boundaries = boundaries.filter((boundary) => boundary.nested >= 0);
    },
  });
  parser.end(html);
  const edits = editsOf(segments, slots);
  if (edits.length === 0) return html;
  const render = (from: number, to: number): string => {
    let out = '';
    let cursor = from;
    for (const edit of edits) {
      if (edit.start < cursor || edit.end > to) continue;
      out += html.slice(cursor, edit.start);
      const segment = edit.segmentKey === undefined ? undefined : segments.get(edit.segmentKey);
      if (segment) out += render(segment.innerStart, segment.innerEnd);
      cursor = edit.end;
    }
    return out + html.slice(cursor, to);
  };
  return render(0, html.length);
}

/**
 * Which segments are placed, as the page's scripts would reach them: slots outside every segment
 * first, then the slots inside each segment placed. Each segment fills its first reachable slot,
 * once, so a segment whose slot sits inside itself (or in a cycle) stays where it is, unread but
 * not lost; so does one whose slot sits inside another slot's fallback, which is replaced whole.
 * Returns the slots to fill and the wrappers to remove, in document order.
 */
function editsOf(segments: ReadonlyMap<string, Segment>, slots: readonly Slot[]): Edit[] {
  const slotsInside = new Map<string | undefined, Slot[]>();
  let replacedUpTo = -1;
  for (const slot of slots) {
    if (slot.start < replacedUpTo) continue;
    replacedUpTo = slot.end;
    const group = slotsInside.get(slot.insideSegment) ?? [];
    group.push(slot);
    slotsInside.set(slot.insideSegment, group);
  }
  const edits: Edit[] = [];
  const placed = new Set<string>();
  const queue: (string | undefined)[] = [undefined];
  while (queue.length > 0) {
    for (const slot of slotsInside.get(queue.pop()) ?? []) {
      const segment = segments.get(slot.key);
      if (!segment || placed.has(slot.key)) continue;
      placed.add(slot.key);
      queue.push(slot.key);
      edits.push({ start: slot.start, end: slot.end, segmentKey: slot.key }, { start: segment.outerStart, end: segment.outerEnd });
    }
  }
  return edits.sort((a, b) => a.start - b.start);
}
