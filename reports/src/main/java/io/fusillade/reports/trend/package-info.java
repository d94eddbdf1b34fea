/**
 * Regression on a schedule: a history of runs (one appended per scheduled or tagged build) cut into
 * periods, each test's latest period against the one before ({@link
 * io.fusillade.reports.trend.PeriodReport}), written as Markdown and JSON and posted to a chat
 * webhook ({@link io.fusillade.reports.trend.ChatWebhook}).
 */
package io.fusillade.reports.trend;
