/* LEVELDB_EXPORT marks the symbols that make up the library's public
   interface.  It only expands to something when the library is consumed or
   produced as a shared object (LEVELDB_SHARED_LIBRARY); static builds get an
   empty macro.  A client may also predefine LEVELDB_EXPORT itself, in which
   case this header leaves it alone.

   C-style comments only: this header is also included from the C API. */

#ifndef STORAGE_LEVELDB_INCLUDE_EXPORT_H_
#define STORAGE_LEVELDB_INCLUDE_EXPORT_H_

#if !defined(LEVELDB_EXPORT)

#if defined(LEVELDB_SHARED_LIBRARY)

#if defined(_WIN32)
/* Windows DLLs: export while building the library, import while using it. */
#if defined(LEVELDB_COMPILE_LIBRARY)
#define LEVELDB_EXPORT __declspec(dllexport)
#else
#define LEVELDB_EXPORT __declspec(dllimport)
#endif /* defined(LEVELDB_COMPILE_LIBRARY) */

#else /* !defined(_WIN32) */
/* ELF/Mach-O: the library may be compiled with hidden visibility, so public
   symbols are explicitly re-exposed.  Consumers need no annotation. */
#if defined(LEVELDB_COMPILE_LIBRARY)
#define LEVELDB_EXPORT __attribute__((visibility("default")))
#else
#define LEVELDB_EXPORT
#endif /* defined(LEVELDB_COMPILE_LIBRARY) */
#endif /* defined(_WIN32) */

#else /* !defined(LEVELDB_SHARED_LIBRARY) */
#define LEVELDB_EXPORT
#endif /* defined(LEVELDB_SHARED_LIBRARY) */

#endif /* !defined(LEVELDB_EXPORT) */

#endif /* STORAGE_LEVELDB_INCLUDE_EXPORT_H_ */
