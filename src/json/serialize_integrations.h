/*
 * serialize_integrations.h - the JSON of integrations, installations, space
 * and site installations and events (GitBook's Integration,
 * IntegrationInstallation, IntegrationSpaceInstallation /
 * IntegrationSiteInstallation, IntegrationEvent), built in this one place.
 * Secrets and scripts are not in the structs these read: no response can
 * carry them.
 */
#ifndef DOCSD_JSON_SERIALIZE_INTEGRATIONS_H
#define DOCSD_JSON_SERIALIZE_INTEGRATIONS_H

#include "domain/integrations.h"
#include "json/jsonw.h"

void integration_to_json(struct jw *g, const char *base, const struct integration_view *v);
void installation_to_json(struct jw *g, const char *base, const char *integration_name,
			  const struct integration_installation *in);
/* space | site: the id, or (tv->expanded, spaces) the Space. */
void target_to_json(struct jw *g, const char *base, const struct target_view *tv);
void event_to_json(struct jw *g, const struct integration_event *ev);
/* getIntegrationEvent: {event, trace: {logs: [{message, timestamp, level}]}}. */
void event_trace_to_json(struct jw *g, const struct event_view *ev);

/* [SiteIntegrationScript, ...]: {script, contentSecurityPolicy?, cookies}. */
void site_scripts_to_json(struct jw *g, const struct site_script *s, int n);

#endif
