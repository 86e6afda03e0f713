/*
 * comments.h - comments and replies on spaces and change requests, their
 * reactions and commenters (store/comments.c). Included by store.h.
 */
#ifndef DOCSD_STORE_COMMENTS_H
#define DOCSD_STORE_COMMENTS_H

#endif
