/**
 * Deterministic pseudo-English for the demo corpus: every page gets its own sentences from a
 * seeded generator, so gold text is known and phrases are (nearly always) unique to a page.
 */

/** mulberry32: a small, fast, seeded PRNG; the corpus only needs repeatability, not quality. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

export function between(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

const ADJECTIVES = [
  'quiet',
  'ancient',
  'bright',
  'northern',
  'local',
  'careful',
  'sudden',
  'modest',
  'distant',
  'curious',
  'patient',
  'silver',
  'hidden',
  'steady',
  'gentle',
  'crowded',
  'remote',
  'narrow',
  'generous',
  'restless',
  'humble',
  'golden',
  'coastal',
  'rural',
  'bold',
  'hollow',
  'frozen',
  'vivid',
  'eager',
  'weary',
  'rapid',
  'solemn',
  'tender',
  'rugged',
  'fragile',
  'lively',
  'sombre',
  'clever',
  'loyal',
  'stubborn',
];
const NOUNS = [
  'council',
  'harbour',
  'library',
  'orchard',
  'bridge',
  'museum',
  'farmer',
  'engineer',
  'river',
  'village',
  'festival',
  'lighthouse',
  'market',
  'teacher',
  'railway',
  'garden',
  'mayor',
  'workshop',
  'observatory',
  'bakery',
  'ferry',
  'archive',
  'quarry',
  'choir',
  'glacier',
  'vineyard',
  'printer',
  'carpenter',
  'meadow',
  'clinic',
  'tramway',
  'canal',
  'beekeeper',
  'foundry',
  'island',
  'monastery',
  'theatre',
  'weaver',
  'valley',
  'harvest',
  'committee',
  'laboratory',
  'cathedral',
  'fisherman',
  'school',
  'mill',
  'tower',
  'forest',
  'surveyor',
  'pilot',
];
const VERBS = [
  'restored',
  'visited',
  'described',
  'welcomed',
  'measured',
  'rebuilt',
  'painted',
  'questioned',
  'supported',
  'mapped',
  'celebrated',
  'inspected',
  'repaired',
  'praised',
  'opened',
  'studied',
  'recorded',
  'protected',
  'planned',
  'funded',
  'explored',
  'defended',
  'photographed',
  'documented',
  'improved',
  'expanded',
  'reviewed',
  'announced',
  'delayed',
  'approved',
];
export const PLACES: readonly string[] = [
  'Alderbrook',
  'Marrowgate',
  'Fenwick Cross',
  'Stillwater',
  'Eastholm',
  'Ravensmoor',
  'Quillby',
  'Oakhurst',
  'Brindle Bay',
  'Caskhaven',
  'Wrenfield',
  'Tollmere',
  'Hawthorne Vale',
  'Penhallow',
  'Gristwood',
  'Larkspur',
];
export const PEOPLE: readonly string[] = [
  'Ada Finch',
  'Tomas Reyes',
  'Mira Okafor',
  'Jonah Price',
  'Lena Voss',
  'Samuel Hart',
  'Priya Nair',
  'Oskar Lind',
  'Hana Sato',
  'Elias Moreau',
  'Grace Mbeki',
  'Felix Brandt',
  'Ines Duarte',
  'Noah Keller',
  'Yara Haddad',
  'Cora Quinn',
];
const CONNECTORS = ['Meanwhile', 'Later that week', 'According to residents', 'In the spring', 'By evening', 'Years earlier', 'Since then', 'For now'];

export function sentence(random: Random): string {
  const subject = `the ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
  const object = `the ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
  const shapes = [
    () => `${capitalise(subject)} ${pick(random, VERBS)} ${object} near ${pick(random, PLACES)}.`,
    () => `${pick(random, CONNECTORS)}, ${pick(random, PEOPLE)} ${pick(random, VERBS)} ${object} with ${between(random, 2, 97)} volunteers.`,
    () => `${capitalise(object)} was ${pick(random, VERBS)} by ${pick(random, PEOPLE)} after ${subject} ${pick(random, VERBS)} ${pick(random, PLACES)}.`,
    () => `"We ${pick(random, VERBS)} ${object} because ${subject} asked us to," said ${pick(random, PEOPLE)}.`,
  ];
  return pick(random, shapes)();
}

export function paragraph(random: Random, sentences = between(random, 2, 5)): string {
  return Array.from({ length: sentences }, () => sentence(random)).join(' ');
}

const SKIES = ['sunshine', 'sunny spells', 'light cloud', 'thick cloud', 'showers', 'heavy rain', 'drizzle', 'fog', 'thunderstorms', 'clear skies'];
const WINDS = ['north', 'north-east', 'east', 'south-east', 'south', 'south-west', 'west', 'north-west'];
const PARTS = ['morning', 'afternoon', 'evening', 'night'];

/**
 * A weather forecast paragraph: the same few dozen words in every article of a forecast site,
 * only the conditions, numbers and places change — genuine text that looks like boilerplate to
 * a term-vector comparison.
 */
export function forecastParagraph(random: Random, place: string): string {
  const sentences = [
    () =>
      `In ${place} the ${pick(random, PARTS)} brings ${pick(random, SKIES)}, turning to ${pick(random, SKIES)} later, with a high of ${between(random, -5, 31)} degrees.`,
    () =>
      `Winds from the ${pick(random, WINDS)} at ${between(random, 5, 60)} kilometres an hour, gusting to ${between(random, 20, 95)} on the coast near ${pick(random, PLACES)}.`,
    () =>
      `Overnight the temperature falls to ${between(random, -12, 18)} degrees under ${pick(random, SKIES)}, and the chance of rain is ${between(random, 0, 100)} per cent.`,
    () =>
      `Visibility is ${pick(random, ['good', 'moderate', 'poor'])} on the roads to ${pick(random, PLACES)}, and the pollen count is ${pick(random, ['low', 'moderate', 'high'])}.`,
    () =>
      `The ${pick(random, PARTS)} after brings ${pick(random, SKIES)} with a high of ${between(random, -5, 31)} degrees and winds from the ${pick(random, WINDS)}.`,
  ];
  const forecaster = `"Keep an eye on the sky over ${place} this ${pick(random, PARTS)}," said ${pick(random, PEOPLE)}.`;
  return [...Array.from({ length: between(random, 3, 5) }, () => pick(random, sentences)()), forecaster].join(' ');
}

export function headline(random: Random): string {
  return `${capitalise(pick(random, ADJECTIVES))} ${pick(random, NOUNS)} ${pick(random, VERBS)} in ${pick(random, PLACES)}`;
}

export function subheading(random: Random): string {
  return `${pick(random, PLACES)}: the ${pick(random, ADJECTIVES)} ${pick(random, NOUNS)}`;
}

export function personName(random: Random): string {
  return pick(random, PEOPLE);
}

export function placeName(random: Random): string {
  return pick(random, PLACES);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
