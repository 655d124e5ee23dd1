// A small std::vector for the C front end's tests: the front end knows the
// class by its name, so the tests need no standard library's header.
namespace std {
template <typename T> struct vector {
  T *data;
  T &operator[](unsigned long i) { return data[i]; }
  const T &operator[](unsigned long i) const { return data[i]; }
};
} // namespace std
