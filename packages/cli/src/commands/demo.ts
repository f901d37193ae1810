export async function demoCommand(): Promise<void> {}
