/**
 * Small hand-made pages of one imaginary site for tests: a constant header, navigation and
 * footer, and an article whose paragraphs differ on every page.
 */
export function sitePage(articleHtml: string, extras = ''): string {
  return `<!DOCTYPE html><html><head><title>Site</title><script>var x = 1;</script></head><body>
<div class="header"><a href="/">The Daily Example</a><ul class="nav"><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/weather">Weather</a></li></ul></div>
<div class="main"><div class="article">${articleHtml}</div>${extras}</div>
<div class="footer"><p>Copyright 2026 The Daily Example. All rights reserved.</p><p>Contact us at the newsroom on Harbour Street.</p></div>
</body></html>`;
}

const WORDS = 'river council market bridge village school orchard library harbour museum farmer teacher mayor garden railway festival'.split(' ');

/** A paragraph of pseudo-text unique to `seed`. */
export function uniqueParagraph(seed: number, words = 30): string {
  const out: string[] = [];
  let state = seed * 7919 + 17;
  for (let i = 0; i < words; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(`${WORDS[state % WORDS.length]}${(state >> 8) % 97}`);
  }
  return out.join(' ');
}

/** `count` pages of the site, each with a headline and three unique paragraphs. */
export function samplePages(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const n = i + offset;
    return sitePage(
      `<h1>Headline ${uniqueParagraph(n * 10, 4)}</h1><p>${uniqueParagraph(n * 10 + 1)}</p><p>${uniqueParagraph(n * 10 + 2)}</p><p>${uniqueParagraph(n * 10 + 3)}</p>`,
    );
  });
}

/** The FastCE paper's Figure 2 paragraph, with its inline `<span>`s. */
export const FIGURE_2_PARAGRAPH = `<p> On Sept. 27, the US <span class="yshortcuts" id="lw_1223369478_0">House of
Representatives</span> unanimously passed a resolution recognizing <span class="yshortcuts"
id="lw_1223369478_1">The Christian Science Monitor</span> on its centennial. The measure was sponsored by <span
class="yshortcuts" id="lw_1223369478_2">Rep. Lamar Smith</span> (R) of Texas who once served on the Monitor staff.
It was cosponsored by 40 other <span class="yshortcuts" id="lw_1223369478_3">members of Congress</span>. </p>`;

/**
 * A new user's trial site: three short Chinese news stories (three paragraphs of 22-33 characters,
 * 74-89 in all) and two English ones, all under the same English copyright footer, in a
 * `div.footer`. The footer has more letters than a story has characters.
 */
export const BILINGUAL_STORIES: readonly { headline: string; paragraphs: readonly string[] }[] = [
  {
    headline: '北京地铁新线开通',
    paragraphs: [
      '北京市今天举行了新的地铁线路开通仪式，市长和数百名市民参加了活动。',
      '这条线路连接城市东部和西部，全长二十五公里，共设十八个车站。',
      '市政府表示，新线路将大大缓解交通压力，方便市民出行。',
    ],
  },
  {
    headline: '上海博物馆新展厅',
    paragraphs: [
      '上海博物馆昨天开放了一个新的展厅，展出了三百多件古代瓷器。',
      '很多游客早上就来排队，希望第一时间看到这些珍贵的文物。',
      '馆长介绍说，这些瓷器大多来自明清时期，非常难得。',
    ],
  },
  {
    headline: '广州春季花市开幕',
    paragraphs: [
      '广州的春季花市本周末开幕，吸引了大量市民和游客前来参观。',
      '花市上有各种各样的鲜花，价格也比去年便宜了一些。',
      '组织者说，今年的花市规模是历年来最大的一次。',
    ],
  },
  {
    headline: 'Harbour festival opens',
    paragraphs: [
      'The harbour festival opened on Saturday with boats, music and food stalls along the quay, and thousands of visitors came from the whole county.',
      'Organisers said the weather helped, and that next year the festival would run for a whole week, with a regatta on the last day.',
      'The council thanked the volunteers, the fishermen and the brass band, who played until midnight on the old pier.',
    ],
  },
  {
    headline: 'Library reopens',
    paragraphs: [
      "The town library reopened after a long renovation, with a new children's room, a reading garden and a café by the entrance.",
      'Visitors praised the light and the quiet corners, and the librarians said that loans had doubled in the first week alone.',
      'The building, a former wool exchange, had been closed for two years while the roof and the windows were repaired.',
    ],
  },
];

export function bilingualSitePage(story: { headline: string; paragraphs: readonly string[] }): string {
  return `<!DOCTYPE html><html><head><title>${story.headline} | Example News</title></head><body>
<div class="header"><a href="/">Example News</a><ul class="nav"><li><a href="/zh">中文</a></li><li><a href="/en">English</a></li><li><a href="/about">About</a></li></ul></div>
<div class="main"><div class="article"><h1>${story.headline}</h1>${story.paragraphs.map((p) => `<p>${p}</p>`).join('')}</div></div>
<div class="footer"><p>Copyright 2024 Example Media Group. All rights reserved. No part of this website may be reproduced without written permission.</p><p>Example Media Group is registered in England and Wales, and its offices are at 1 High Street, London.</p></div>
</body></html>`;
}
