import { Button } from '@radix-ui/themes';
import { type FormEvent, useState } from 'react';
import { type ConsoleSession, messageOf, signIn } from '../api.ts';
import { Page, Status } from '../components/page.tsx';
import { go, tenantHref } from '../router.ts';

export function SignInPage({ onSignIn }: { onSignIn: (s: ConsoleSession) => void }) {
  const [token, setToken] = useState('');
  const [message, setMessage] = useState<{ text: string; error?: boolean } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const session = await signIn(token);
      onSignIn(session);
      go(session.kind === 'admin' ? '#/' : tenantHref(session.tenant_id!));
    } catch (err) {
      setMessage({ text: messageOf(err), error: true });
    }
  };
  return (
    <Page title="Sign in">
      <form onSubmit={submit} className="stack">
        <label htmlFor="token">Admin token or tenant API key</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          required
          aria-describedby="token-help"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
        <p id="token-help">
          The admin token sees every tenant; an API key (hk_live_… or hk_test_…) sees only its tenant.
        </p>
        <div>
          <Button type="submit">Sign in</Button>
        </div>
        <Status id="signin-status" message={message} />
      </form>
    </Page>
  );
}
