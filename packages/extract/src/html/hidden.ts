const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))/i;

/**
 * True for an element no reader sees, as far as its own markup tells: the `hidden` attribute or
 * an inline `display:none` / `visibility:hidden|collapse`. Stylesheets are not applied (only `vge`
 * renders pages), so text hidden by a class is not detected here. Every method that reads markup
 * uses this one rule.
 */
export function isHiddenElement(attribs: Readonly<Record<string, string>>): boolean {
  if (attribs.hidden !== undefined) return true;
  const style = attribs.style;
  return style !== undefined && HIDDEN_STYLE.test(style);
}
