module example.com/native

go 1.26
