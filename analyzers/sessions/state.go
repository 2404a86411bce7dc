package sessions
