//! The brett app server.
