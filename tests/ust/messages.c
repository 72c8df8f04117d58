/* messages.c - threads that talk through mailboxes, traced with the
 * msgdemo tracepoints (messages-tp.h): the test trace of tracenav's
 * sequence diagram on a real LTTng-UST trace (tools/record-ust-traces).
 *
 * Three clients ("client-1".."client-3") each send ROUNDS requests to
 * the "server", which asks the "db" a query for each and replies to the
 * client with the db's result: four messages a request, the clients'
 * conversations interleaved at the server and the db.  Each thread is
 * named after its lifeline (its procname context).  The sender traces a
 * send before it posts the message, the receiver a receive after it
 * takes it; seq is the request's id (1000 * client + round), the same
 * for its four messages.  Two ends have no partner: the server
 * receives a heartbeat from a "monitor" that traced no send, and
 * client-3 sends a cancel that nobody takes. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "messages-tp.h"

#define CLIENTS 3
#define ROUNDS 12

struct message {
	struct message *next;
	const char *sender;
	const char *signal;
	int seq;
};

struct mailbox {
	pthread_mutex_t lock;
	pthread_cond_t ready;
	struct message *head, *tail;
};

static struct mailbox server_box, db_box, client_box[CLIENTS];
static const char *const client_name[CLIENTS] = {
	"client-1", "client-2", "client-3",
};

static void mailbox_init(struct mailbox *box)
{
	pthread_mutex_init(&box->lock, NULL);
	pthread_cond_init(&box->ready, NULL);
	box->head = box->tail = NULL;
}

/* Trace the send, then post the message to the receiver's mailbox. */
static void send_to(struct mailbox *box, const char *sender,
		const char *receiver, const char *signal, int seq)
{
	struct message *m = malloc(sizeof(*m));

	if (!m)
		abort();
	tracepoint(msgdemo, send, sender, receiver, signal, seq);
	m->next = NULL;
	m->sender = sender;
	m->signal = signal;
	m->seq = seq;
	pthread_mutex_lock(&box->lock);
	if (box->tail)
		box->tail->next = m;
	else
		box->head = m;
	box->tail = m;
	pthread_cond_signal(&box->ready);
	pthread_mutex_unlock(&box->lock);
}

/* Take the oldest message of the mailbox and trace its receive; the
 * caller frees it. */
static struct message *receive_from(struct mailbox *box, const char *receiver)
{
	struct message *m;

	pthread_mutex_lock(&box->lock);
	while (!box->head)
		pthread_cond_wait(&box->ready, &box->lock);
	m = box->head;
	box->head = m->next;
	if (!box->head)
		box->tail = NULL;
	pthread_mutex_unlock(&box->lock);
	tracepoint(msgdemo, receive, m->sender, receiver, m->signal, m->seq);
	return m;
}

static void *client(void *arg)
{
	int id = (int) (long) arg;
	const char *me = client_name[id];

	pthread_setname_np(pthread_self(), me);
	for (int round = 1; round <= ROUNDS; round++) {
		send_to(&server_box, me, "server", "request",
			1000 * (id + 1) + round);
		free(receive_from(&client_box[id], me));
	}
	if (id == CLIENTS - 1)	/* nobody takes it */
		tracepoint(msgdemo, send, me, "server", "cancel",
			1000 * (id + 1) + ROUNDS + 1);
	return NULL;
}

static void *server(void *arg)
{
	int replies = 0;

	(void) arg;
	pthread_setname_np(pthread_self(), "server");
	/* its send was never traced */
	tracepoint(msgdemo, receive, "monitor", "server", "heartbeat", 1);
	while (replies < CLIENTS * ROUNDS) {
		struct message *m = receive_from(&server_box, "server");

		if (!strcmp(m->signal, "request")) {
			send_to(&db_box, "server", "db", "query", m->seq);
		} else {
			send_to(&client_box[m->seq / 1000 - 1], "server",
				client_name[m->seq / 1000 - 1], "reply",
				m->seq);
			replies++;
		}
		free(m);
	}
	return NULL;
}

static void *db(void *arg)
{
	(void) arg;
	pthread_setname_np(pthread_self(), "db");
	for (int i = 0; i < CLIENTS * ROUNDS; i++) {
		struct message *m = receive_from(&db_box, "db");

		send_to(&server_box, "db", "server", "result", m->seq);
		free(m);
	}
	return NULL;
}

int main(void)
{
	pthread_t threads[CLIENTS + 2];

	mailbox_init(&server_box);
	mailbox_init(&db_box);
	for (int i = 0; i < CLIENTS; i++)
		mailbox_init(&client_box[i]);
	pthread_create(&threads[0], NULL, server, NULL);
	pthread_create(&threads[1], NULL, db, NULL);
	for (long i = 0; i < CLIENTS; i++)
		pthread_create(&threads[2 + i], NULL, client, (void *) i);
	for (int i = 0; i < CLIENTS + 2; i++)
		pthread_join(threads[i], NULL);
	puts("messages: done");
	return 0;
}
