import { launchBrowser, newPage, api } from './helpers.mjs';
const base = 'http://127.0.0.1:8799';
const browser = await launchBrowser();
const { page } = await newPage(browser, { locale: 'en-US', width: 390, height: 844 });
const { data } = await api(base, 'POST', '/api/games', { game: 'dame', kind: 'local', options: { huffing: true }, position: 'W:Wa1,c3,g3,Kh2:Bb8,d4,h8' });
await page.goto(base + '/');
await page.evaluate((id) => localStorage.setItem(`brett.seats.${id}`, JSON.stringify({ white: 'w', black: 'b' })), data.id);
await page.goto(`${base}/game/${data.id}`);
await page.waitForSelector('.dame-board .sq.movable');
await page.click('.dame-board [data-square=g3]');
await page.click('.dame-board [data-square=f4]');
await page.waitForSelector('.dame-board .sq.is-huffable');
await page.screenshot({ path: '/tmp/mock/m1.png', fullPage: true });
// keyboard
await page.focus('.dame-board [data-square=d4]');
await page.keyboard.press('ArrowDown');
console.log(await page.evaluate(() => document.activeElement?.dataset?.square));
await browser.close();
