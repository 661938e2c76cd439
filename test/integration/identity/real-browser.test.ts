// Real browser (Debian chromium + playwright-core): temporary password -> own password -> enrol two-factor -> sign out -> sign in with a code.
import { browserMissing, launchChromium } from '../../support/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { totpCode } from '../../../src/auth/totp.js';

const missing = browserMissing;
if (missing) console.warn(`[real-browser] skipped: ${missing}`);

describe.skipIf(missing !== null)(`real browser sign-in and two-factor${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let t: TestService;
  let browser: any;
  beforeAll(async () => {
    t = await startTestService();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in with a temporary password, chooses a new one, enrols two-factor, signs out, signs in with a code', async () => {
    const email = 'browser-person@example.test';
    const added = await t.call('POST', '/api/v1/team', { email, role: 'operator' });
    expect(added.status).toBe(201);
    const page = await (await browser.newContext()).newPage();

    await page.goto(`${t.url}/login`);
    await page.fill('#email', email);
    await page.fill('#password', added.body.temporaryPassword);
    await Promise.all([page.waitForURL(/\/account$/), page.click('button[type=submit]')]);
    expect(await page.textContent('body')).toContain('Choose your own password');

    const password = 'Lighthouse-Keeper-Morning-7';
    await page.fill('#current', added.body.temporaryPassword);
    await page.fill('#password', password);
    await Promise.all([page.waitForLoadState('load'), page.click('form[action="/account/password"] button[type=submit]')]);
    expect(await page.textContent('[data-notice]')).toContain('Your password was changed');

    await page.goto(`${t.url}/account/two-factor`);
    const secret = await page.getAttribute('[data-totp-secret]', 'data-totp-secret');
    const now = await t.advance(0);
    await page.fill('#code', totpCode(secret, Math.floor(now / 1000)));
    await page.fill('#password', password);
    await Promise.all([page.waitForLoadState('load'), page.click('form[action="/account/two-factor"] button[type=submit]')]);
    expect(await page.locator('[data-recovery-code]').count()).toBe(10);

    await Promise.all([page.waitForURL(/\/login$/), page.click('form[action="/logout"] button[type=submit]')]);

    await page.fill('#email', email);
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(/\/login\/two-factor$/), page.click('button[type=submit]')]);
    // The enrolment used the current step's code; the next step's code is accepted (±1 step) and unused.
    const later = await t.advance(0);
    await page.fill('#code', totpCode(secret, Math.floor(later / 1000) + 30));
    // The home page after sign-in is the orders list (contract section 13).
    await Promise.all([page.waitForURL(/\/orders$/), page.click('button[type=submit]')]);
    await page.goto(`${t.url}/account`);
    expect(await page.textContent('[data-email]')).toBe(email);
    expect(await page.getAttribute('[data-recovery-remaining]', 'data-recovery-remaining')).toBe('10');
  });
});
