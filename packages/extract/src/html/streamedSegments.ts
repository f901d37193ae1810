import { Parser } from 'htmlparser2';
import { PageTokenizer } from './pageTokenizer.js';

/** React's markers: a finished segment `<div hidden id="S:1f">`, and the slots it fills, `B:1f` (a Suspense boundary) or `P:1f`. */
const SEGMENT_ID = /^S:([0-9a-f]+)$/;
const SLOT_ID = /^([BP]):([0-9a-f]+)$/;
/** Comments that open (`$` done, `$?` pending, `$!` failed, `$~` queued) and close a Suspense boundary. */
const BOUNDARY_OPENS: ReadonlySet<string> = new Set(['$', '$?', '$!', '$~']);
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

/** An element (or the document) whose children are being read. */
interface Parent {
  /** Boundary-opening comments minus boundary-closing ones among its children so far. */
  boundaryBalance: number;
}

interface OpenElement extends Parent {
  readonly outerStart: number;
  readonly innerStart: number;
  readonly segmentKey?: string;
  readonly slot?: Slot;
}

/**
 * A boundary slot whose closing comment is still to come: the first comment among its siblings
 * that brings their balance below what it was at the slot.
 */
interface OpenBoundary {
  readonly slot: Slot;
  /** Open elements around the slot. */
  readonly depth: number;
  readonly balanceAtSlot: number;
}

/** Thrown to stop reading a page nested deeper than `maxOpenElements` (htmlparser2 slows down quadratically there). */
const TOO_DEEP = Symbol('too deep');

interface Edit {
  readonly start: number;
  readonly end: number;
  /** The segment that replaces the range; none: the range (a placed segment's wrapper) is removed. */
  readonly segmentKey?: string;
}

/**
 * Puts the segments of a page streamed by React (18+: Next.js's app router, Remix) where the
 * page's scripts would put them. Such a page sends its shell first, with a slot wherever content
 * was not ready — `<template id="B:0">` followed by a fallback (a skeleton, "Loading...") up to
 * the boundary's `<!--/$-->`, or `<template id="P:1">` — and then each finished part in
 * `<div hidden id="S:0">`, with a one-line script that moves it into its slot. Read without
 * scripts, such a page is skeletons, and its article is hidden, so no method read it (33 of
 * wcxb's 1,497 pages; 7 of its articles read as their footer). As React's `$RC` and `$RS` do: a
 * segment replaces its `P:` template, or its `B:` template and the fallback after it; segments
 * fill slots inside other segments; a segment without a slot stays hidden where it is. Pages saved
 * without their comments keep the fallback (where it ends is unknown), which costs a "Loading..."
 * line, never text. Offsets come from htmlparser2, so the rest of the page is kept byte for byte.
 * Not handled: segments React streams into tables, SVG and MathML (`<table hidden><tbody
 * id="S:0">`), whose id sits on a child of the hidden element; they stay hidden. A page nested
 * deeper than `maxOpenElements` is returned as it is.
 */
export function placeStreamedSegments(html: string, maxOpenElements: number): string {
  if (!html.includes('id="S:')) return html;
  // htmlparser2 reports the end of input one past its last index when the page ends inside a comment.
  const at = (index: number): number => Math.min(index, html.length);
  const segments = new Map<string, Segment>();
  const slots: Slot[] = [];
  const open: OpenElement[] = [];
  const openSegments: string[] = [];
  const boundaries: OpenBoundary[] = [];
  const document: Parent = { boundaryBalance: 0 };
  const parser = new Parser(
    {
      onopentag(_name, attribs) {
        if (open.length >= maxOpenElements) throw TOO_DEEP;
        const id = attribs.id ?? '';
        const segmentKey = attribs.hidden !== undefined ? SEGMENT_ID.exec(id)?.[1] : undefined;
        const slotId = SLOT_ID.exec(id);
        const slot: Slot | undefined = slotId
          ? { key: slotId[2] as string, start: parser.startIndex, end: at(parser.endIndex + 1), insideSegment: openSegments.at(-1) }
          : undefined;
        if (slot) slots.push(slot);
        if (slot && slotId?.[1] === 'B') boundaries.push({ slot, depth: open.length, balanceAtSlot: (open.at(-1) ?? document).boundaryBalance });
        if (segmentKey !== undefined) openSegments.push(segmentKey);
        open.push({
          outerStart: parser.startIndex,
          innerStart: at(parser.endIndex + 1),
          boundaryBalance: 0,
          ...(segmentKey === undefined ? {} : { segmentKey }),
          ...(slot ? { slot } : {}),
        });
      },
      onclosetag(_name, isImplied) {
        const element = open.pop();
        if (!element) return;
        // An element closed by another tag (no end tag of its own) ends where that tag starts.
        const end = at(isImplied ? parser.startIndex : parser.endIndex + 1);
        if (element.slot) element.slot.end = end;
        if (element.segmentKey !== undefined) {
          openSegments.pop();
          if (!segments.has(element.segmentKey)) {
            segments.set(element.segmentKey, {
              outerStart: element.outerStart,
              outerEnd: end,
              innerStart: element.innerStart,
              innerEnd: at(parser.startIndex),
            });
          }
        }
        // Boundaries whose parent just closed keep the template alone as their slot.
        while ((boundaries.at(-1)?.depth ?? -1) > open.length) boundaries.pop();
      },
      oncomment(data) {
        const parent = open.at(-1) ?? document;
        if (BOUNDARY_OPENS.has(data)) parent.boundaryBalance++;
        else if (data === BOUNDARY_CLOSE) parent.boundaryBalance--;
        else return;
        // Open boundaries among these siblings are on top, the innermost last.
        for (let top = boundaries.at(-1); top && top.depth === open.length && parent.boundaryBalance < top.balanceAtSlot; top = boundaries.at(-1)) {
          top.slot.end = at(parser.startIndex);
          boundaries.pop();
        }
      },
    },
    { Tokenizer: PageTokenizer },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (error === TOO_DEEP) return html;
    throw error;
  }
  const edits = editsOf(segments, slots);
  return edits.length === 0 ? html : rendered(html, edits, segments);
}

/**
 * The page with its edits applied, segments rendered into their slots with their own slots
 * filled in turn. An explicit stack of ranges being copied, and a binary search for each range's
 * next edit, keep it linear in the page whatever the nesting.
 */
function rendered(html: string, edits: readonly Edit[], segments: ReadonlyMap<string, Segment>): string {
  const out: string[] = [];
  const ranges: { cursor: number; to: number }[] = [{ cursor: 0, to: html.length }];
  for (let range = ranges.at(-1); range; range = ranges.at(-1)) {
    const edit = edits[firstEditFrom(edits, range.cursor)];
    if (!edit || edit.end > range.to) {
      out.push(html.slice(range.cursor, range.to));
      ranges.pop();
      continue;
    }
    out.push(html.slice(range.cursor, edit.start));
    range.cursor = edit.end;
    const segment = edit.segmentKey === undefined ? undefined : segments.get(edit.segmentKey);
    if (segment) ranges.push({ cursor: segment.innerStart, to: segment.innerEnd });
  }
  return out.join('');
}

/** Index of the first edit starting at or after `position` (edits are sorted by start). */
function firstEditFrom(edits: readonly Edit[], position: number): number {
  let low = 0;
  let high = edits.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((edits[middle] as Edit).start < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Which segments are placed, as the page's scripts would reach them: slots outside every segment
 * first, then the slots inside each segment placed. Each segment fills one reachable slot, once,
 * so a segment whose slot sits inside itself (or in a cycle) stays where it is, unread but not
 * lost; so does one whose slot sits inside a fallback that another segment replaces whole.
 * Returns the slots to fill and the wrappers to remove, in document order.
 */
function editsOf(segments: ReadonlyMap<string, Segment>, slots: readonly Slot[]): Edit[] {
  const slotsInside = new Map<string | undefined, Slot[]>();
  let replacedUpTo = -1;
  for (const slot of slots) {
    if (slot.start < replacedUpTo) continue;
    if (segments.has(slot.key)) replacedUpTo = slot.end;
    const group = slotsInside.get(slot.insideSegment) ?? [];
    group.push(slot);
    slotsInside.set(slot.insideSegment, group);
  }
  const edits: Edit[] = [];
  const placed = new Set<string>();
  const placedToRead: (string | undefined)[] = [undefined];
  while (placedToRead.length > 0) {
    for (const slot of slotsInside.get(placedToRead.pop()) ?? []) {
      const segment = segments.get(slot.key);
      if (!segment || placed.has(slot.key)) continue;
      placed.add(slot.key);
      placedToRead.push(slot.key);
      edits.push({ start: slot.start, end: slot.end, segmentKey: slot.key }, { start: segment.outerStart, end: segment.outerEnd });
    }
  }
  return edits.sort((a, b) => a.start - b.start);
}
