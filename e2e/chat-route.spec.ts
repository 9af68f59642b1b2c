import { calculatorModel } from '../src-main/test-support/fake-providers';
import { expect } from './fixtures';
import { withFakeModel } from './fake-model';
import { expectChatReady, expectReady, send } from './helpers';

/*
 * The composer says where a message goes — provider, model, endpoint — and, on hover, where each came from; it
 * follows the model picker. (The host runs in the repository's folder, whose .env sets no model or endpoint, so no
 * confirmation waits.)
 */

const test = withFakeModel(calculatorModel());

test('the composer names the provider, model and endpoint, and follows the picker', async ({ page, fake }) => {
  await expectReady(page, 'calculator');
  await expectChatReady(page, 'openai:fake-model');
  const route = page.getByTestId('chat-route');
  await expect(route).toHaveText(`OpenAI · fake-model · ${fake.baseURL}`);
  await expect(route).toHaveAttribute('data-endpoint', fake.baseURL);
  await expect(route).toHaveAttribute('title', 'Model: SWITCHBOARD_MODEL in the environment. Endpoint: OPENAI_BASE_URL in the environment.');
  await expect(page.getByTestId('dotenv-notice')).toHaveCount(0);

  // The turn goes where the line says.
  await send(page, 'hello');
  await expect(page.getByTestId('assistant-message').getByTestId('markdown').last()).toHaveText('You said: hello');
  await expect.poll(() => fake.requests.length).toBe(1);

  // Another model: the line follows (Ollama's default endpoint, the model chosen in the app).
  const picker = page.getByTestId('model-picker');
  await picker.fill('ollama:llama3.2');
  await picker.blur();
  await expect(route).toHaveText('Ollama · llama3.2 · http://127.0.0.1:11434/v1');
  await expect(route).toHaveAttribute('title', "Model: chosen in the app. Endpoint: the provider's default.");
});
