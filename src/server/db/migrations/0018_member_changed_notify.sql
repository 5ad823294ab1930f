-- A member's live event streams end when their rights or their session change: every path that
-- changes them (sign-out, revocation, password or email change, tier, admin, deletion, expiry of a
-- session) writes these rows, so the database names the member on NOTIFY dhr_member_changed at
-- commit and no code path can forget to (src/server/modules/radio/sse-hub.ts MEMBER_CHANGED_CHANNEL).
CREATE OR REPLACE FUNCTION dhr_notify_session_ended() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('dhr_member_changed', 's:' || OLD.id_hash);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER sessions_ended_notify AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION dhr_notify_session_ended();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION dhr_notify_member_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('dhr_member_changed', 'u:' || OLD.id);
  ELSIF OLD.subscription_tier IS DISTINCT FROM NEW.subscription_tier
     OR OLD.subscription_status IS DISTINCT FROM NEW.subscription_status
     OR OLD.subscription_expiry IS DISTINCT FROM NEW.subscription_expiry
     OR OLD.is_admin IS DISTINCT FROM NEW.is_admin
     OR OLD.email IS DISTINCT FROM NEW.email
     OR OLD.password_hash IS DISTINCT FROM NEW.password_hash THEN
    PERFORM pg_notify('dhr_member_changed', 'u:' || NEW.id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER users_changed_notify AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION dhr_notify_member_changed();
