DROP INDEX "listening_sessions_by_start";--> statement-breakpoint
CREATE INDEX "listening_sessions_by_end" ON "listening_sessions" USING btree ("ended_at","started_at");--> statement-breakpoint
CREATE INDEX "listening_sessions_by_start" ON "listening_sessions" USING btree ("started_at","id");