import './event.graphql';
