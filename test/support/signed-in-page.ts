// The page tests' sign-in: a fresh browser context carrying a person's session cookie, and a page on it that records
// its console errors, uncaught page errors and the origin of every request it makes.

/** A page signed in as one person, with what it recorded so far. */
export interface SignedInPage {
  page: any;
  context: any;
  /** Console errors and uncaught page errors, in order. */
  errors: string[];
  /** The origin of every request the page made (nothing may come from another origin). */
  origins: Set<string>;
}

/**
 * Opens a page on `baseUrl` signed in with `cookie` (a person's `name=value` session cookie). `contextOptions` are
 * playwright's context options; the viewport defaults to 1280 × 900.
 */
export async function openSignedIn(browser: any, baseUrl: string, cookie: string, contextOptions: Record<string, unknown> = {}): Promise<SignedInPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: baseUrl }]);
  const page = await context.newPage();
  const errors: string[] = [];
  const origins = new Set<string>();
  page.on('console', (m: any) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e: Error) => errors.push(e.message));
  page.on('request', (r: any) => origins.add(new URL(r.url()).origin));
  return { page, context, errors, origins };
}
