/**
 * Small pages whose right answer is obvious: the main text's sentences must all come out, in
 * order, and none of the page's boilerplate. Shared by the tests of every single-page method.
 */
export const HAND_MADE_SENTENCES = [
  'The river council met on Tuesday evening to decide the future of the old stone bridge over the Wend, which has carried carts and walkers since the year of the great flood.',
  "Engineers told the council that the arches are sound but the parapets lean outward by a hand's width, and that a lorry striking them could bring a section down into the water below.",
  'After two hours of debate the members agreed to close the bridge to motor traffic from the first of next month and to ask the county for the money to rebuild the parapets in the old style.',
  'Shopkeepers on the east bank said the closure would cost them trade, while parents at the village school welcomed a quieter crossing for their children on the way to lessons each morning.',
];
const paragraphs = HAND_MADE_SENTENCES.map((sentence) => `<p>${sentence}</p>`);

/** Page styles, as a site's stylesheet would give them: the visual cues `vge` reads. */
const STYLE =
  '<head><style>body{font-family:serif;font-size:16px} .header{background:#123;color:#fff;font-size:14px;padding:8px} .menu{display:flex;gap:12px;list-style:none} .story,article,#content{width:720px;margin:24px auto} .ad-banner{background:#ffd;width:300px;font-size:12px;margin:12px 0} .footer,footer{background:#eee;font-size:12px;padding:16px} footer .col{display:inline-block;width:180px;vertical-align:top}</style></head>';

const NAV =
  '<ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li><li><a href="/contact">Contact</a></li></ul>';

export interface HandMadePage {
  name: string;
  html: string;
  boilerplate: string[];
}

export const HAND_MADE_PAGES: HandMadePage[] = [
  {
    name: 'main text split by an advertisement banner',
    html: `<html>${STYLE}<body><div class="header"><h3>The Valley Courier</h3>${NAV}</div><div class="story"><h1>Bridge to close to traffic</h1>${paragraphs[0]}${paragraphs[1]}<div class="ad-banner"><a href="/ads/1"><img src="/ad.png">Winter tyres at half price this week only</a></div>${paragraphs[2]}${paragraphs[3]}</div><div class="footer">Copyright the Valley Courier</div></body></html>`,
    boilerplate: ['Winter tyres at half price', 'Copyright the Valley Courier', 'Weather'],
  },
  {
    name: 'a page laid out with nested tables',
    html: `<html>${STYLE}<body><table width="100%"><tr><td colspan="2"><font size="5">The Valley Courier</font></td></tr><tr><td width="150" valign="top">${NAV}<p><a href="/archive">Archive</a><br><a href="/letters">Letters</a></p></td><td valign="top"><table><tr><td><h1>Bridge to close to traffic</h1></td></tr><tr><td>${paragraphs.join('')}</td></tr></table></td></tr><tr><td colspan="2"><small>Copyright the Valley Courier</small></td></tr></table></body></html>`,
    boilerplate: ['Archive', 'Copyright the Valley Courier', 'Weather'],
  },
  {
    name: 'a page with a long footer',
    html: `<html>${STYLE}<body><div id="content"><h1>Bridge to close to traffic</h1>${paragraphs.join('')}</div><footer>${Array.from({ length: 6 }, (_, i) => `<div class="col"><h4>Section ${i}</h4><ul>${Array.from({ length: 8 }, (_, k) => `<li><a href="/s${i}/${k}">Footer link number ${k} of section ${i}</a></li>`).join('')}</ul></div>`).join('')}<p>The Valley Courier is published by Valley Media Limited, registered in the county, and is a member of the independent press standards organisation.</p></footer></body></html>`,
    boilerplate: ['Footer link number', 'Valley Media Limited'],
  },
  {
    name: 'hidden display:none text inside the article',
    html: `<html>${STYLE}<body>${NAV}<article><h1>Bridge to close to traffic</h1>${paragraphs[0]}<div style="display:none">Secret hidden text that no reader sees</div>${paragraphs[1]}<span style="display: none">More invisible words</span>${paragraphs[2]}<p hidden>Hidden by attribute</p>${paragraphs[3]}</article></body></html>`,
    boilerplate: ['Secret hidden text', 'More invisible words', 'Hidden by attribute', 'Weather'],
  },
];
