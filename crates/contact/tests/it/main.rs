//! Integration tests of cspace-contact.

mod world_contacts;
