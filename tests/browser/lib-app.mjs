// Helpers shared by the web interface's browser tests (app*.test.mjs). Setting a user's password
// and the test password itself are in ../api/lib/app.mjs, shared with the API tests.
import { PASSWORD } from '../api/lib/app.mjs';

/** Fills the sign-in form `page` shows, submits it and waits for the home page (`${url}/`). */
export async function submitSignIn(page, url, email, password = PASSWORD) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForURL(`${url}/`), page.getByRole('button', { name: 'Sign in' }).click()]);
}
